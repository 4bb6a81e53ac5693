// Package nativemsg speaks Chrome's native-messaging protocol for the host:
// length-prefixed JSON frames on the host's stdin and stdout, the versioned
// envelope every message wears, the hello exchange, numbered error replies,
// and the chunking of replies larger than Chrome accepts from a host.
//
// The server is a dispatcher: features register a Handler per message type
// and never see frames. The wire format is written down in host/PROTOCOL.md;
// a change here that a reader of that file would not expect is a bug.
//
// It reads and writes only the io.Reader and io.Writer it is given (never
// os.Stdin or os.Stdout), writes nothing but whole frames, and imports none of
// Trailpin's other packages.
package nativemsg
