package sandbox

// The ids the sandbox gives its answers (RequestIDHeader).

import (
	"encoding/binary"
	"encoding/hex"
	"sync/atomic"

	"github.com/google/uuid"
)

// requestIDs makes the RequestIDHeader values of one sandbox: "req_" and a
// UUID (random version 4 form), the sandbox's random base with a counter
// xored into its low 62 bits. The ids are unique within a sandbox (for
// 2^62 answers) and, their bases being random, across sandboxes, without
// reading crypto/rand for each answer.
type requestIDs struct {
	base uuid.UUID
	n    atomic.Uint64
}

// newRequestIDs returns a generator with a fresh random base.
func newRequestIDs() *requestIDs {
	return &requestIDs{base: uuid.New()}
}

// next returns a new id, "req_" and the UUID's canonical text.
func (g *requestIDs) next() string {
	id := g.base
	lo := binary.BigEndian.Uint64(id[8:]) ^ (g.n.Add(1) & (1<<62 - 1)) // the variant bits stay
	binary.BigEndian.PutUint64(id[8:], lo)
	var buf [len("req_") + 36]byte
	copy(buf[:], "req_")
	hex.Encode(buf[4:12], id[0:4])
	buf[12] = '-'
	hex.Encode(buf[13:17], id[4:6])
	buf[17] = '-'
	hex.Encode(buf[18:22], id[6:8])
	buf[22] = '-'
	hex.Encode(buf[23:27], id[8:10])
	buf[27] = '-'
	hex.Encode(buf[28:], id[10:])
	return string(buf[:])
}
