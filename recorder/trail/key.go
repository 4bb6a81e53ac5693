package trail

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
)

// A step's key says what its recording belongs to (docs/agent.md): the agent
// configuration that made it and the goal it was made for. It is written in
// the trail file beside the recording, so that a replay needs nothing but the
// file to tell a recording it may replay from one that is a miss: CI has no
// database.
//
// The value is "<agent configuration>/<goal digest>":
//
//	key: agent-1+3f2a9c1b7d20/5e4f0a1b2c3d
//
// The agent configuration is agent.ConfigKey() (the prompt's version and a
// digest of its tools and instructions; not the model, not the budgets).
// The goal digest is goalDigestLen hex digits of the SHA-256 of the step's
// intent and act as written: references are not expanded, so a
// ${param:…}'s value never enters the key, and a secret enters it by name
// only.
//
// Only a recording the agent made has a key (a heal, a bare goal, a step
// the agent performed while recording). A step without one is a person's
// recording, or one from before keys: it belongs to whatever its intent
// says now and to every agent configuration, and is replayed as long as it
// replays.

// goalDigestLen is how many hex digits of the goal's SHA-256 a key keeps:
// 48 bits tell apart the edits of one step's wording many times over, and
// the key stays short enough to read in a diff.
const goalDigestLen = 12

// keyPattern is a key as the loader accepts it: an agent configuration
// (letters, digits and . _ + -) and the goal digest.
var keyPattern = regexp.MustCompile(`^([A-Za-z0-9][A-Za-z0-9._+-]*)/([0-9a-f]{12})$`)

// StepKey returns the key a recording of s made now by the agent
// configuration agentKey gets (agent.ConfigKey()).
func StepKey(s Step, agentKey string) string {
	return agentKey + "/" + goalDigest(s)
}

// goalDigest is the digest of what the agent is asked to do for s: its
// intent and its act, as written in the file.
func goalDigest(s Step) string {
	h := sha256.New()
	fmt.Fprintf(h, "intent\x00%s\x00act\x00%s", s.Intent, s.Act)
	return hex.EncodeToString(h.Sum(nil))[:goalDigestLen]
}

// RecordingMiss says why the recording of s does not belong to the agent
// configuration agentKey and the step as it is now written, in one
// sentence for the trace page; "" when it belongs. A step without a key
// always belongs (a person's recording). A miss means the agent performs
// the step from the beginning (under cache.strict: REPLAY_STALE).
func RecordingMiss(s Step, agentKey string) string {
	if s.Key == "" {
		return ""
	}
	config, digest, ok := splitKey(s.Key)
	if !ok {
		return fmt.Sprintf("the step's key %q is not a key this host writes", s.Key)
	}
	var why []string
	if digest != goalDigest(s) {
		why = append(why, "the step's intent changed since its recording was made")
	}
	if config != agentKey {
		why = append(why, fmt.Sprintf("the recording was made with another agent configuration (%s; this host's is %s)", config, agentKey))
	}
	return strings.Join(why, ", and ")
}

// splitKey splits a key into its agent configuration and goal digest.
func splitKey(key string) (config, digest string, ok bool) {
	m := keyPattern.FindStringSubmatch(key)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}
