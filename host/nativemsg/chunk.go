package nativemsg

import (
	"encoding/base64"
	"fmt"
)

// chunkData is how many bytes of the encoded message one chunk carries. In
// base64 they take 4/3 as much (about 683 KiB), which leaves room for the
// envelope under Chrome's 1 MiB limit on frames from a host.
const chunkData = 512 << 10

// A chunk is one piece of a message too large for one frame. Its envelope
// carries the id of the message it belongs to; Data is the base64 of bytes
// [Seq*chunkData, …) of the message's JSON encoding. Chunks of one message
// are written one after another with nothing in between.
type chunk struct {
	Seq   int    `json:"seq"`
	Count int    `json:"count"`
	Data  string `json:"data"`
}

// splitMessage returns the frames that carry msg: msg itself when it fits,
// or chunk frames with the message's id otherwise.
func splitMessage(id string, msg []byte) ([][]byte, error) {
	if len(msg) <= MaxOutgoing {
		return [][]byte{msg}, nil
	}
	count := (len(msg) + chunkData - 1) / chunkData
	frames := make([][]byte, 0, count)
	for seq := range count {
		end := min((seq+1)*chunkData, len(msg))
		c := chunk{Seq: seq, Count: count, Data: base64.StdEncoding.EncodeToString(msg[seq*chunkData : end])}
		f, err := encodeMessage(Envelope{V: ProtocolVersion, ID: id, Type: TypeChunk}, c)
		if err != nil {
			return nil, fmt.Errorf("encoding chunk %d of %d: %w", seq, count, err)
		}
		frames = append(frames, f)
	}
	return frames, nil
}
