package fiatramp

import (
	"crypto/sha256"
	"encoding/base64"
	"hash"
	"strconv"
	"sync"
)

// maxPooledBuffer is the largest key prefix Sign keeps for reuse.
const maxPooledBuffer = 64 << 10

// Sign returns the standard Base64 (with padding) HMAC-SHA256, keyed by
// apiSecret, of apiKey + "|" + decimal timestamp + "|" + canonicalBody: the
// X-SIGNATURE header of a request whose X-TIMESTAMP is timestamp. A GET
// request signs the body "{}".
func Sign(apiKey, apiSecret string, timestamp int64, canonicalBody []byte) string {
	s := macPool.Get().(*macState)
	mac := s.sum(apiKey, apiSecret, timestamp, canonicalBody)
	var enc [44]byte // base64.StdEncoding.EncodedLen(sha256.Size)
	base64.StdEncoding.Encode(enc[:], mac)
	// Leave no key material in the pooled state.
	clear(s.pad[:])
	clear(s.out[:])
	if len(apiSecret) > sha256.BlockSize {
		clear(s.prefix[:cap(s.prefix)])
	}
	s.h.Reset()
	if cap(s.prefix) > maxPooledBuffer {
		s.prefix = nil
	}
	macPool.Put(s)
	return string(enc[:])
}

// macState is the reusable scratch of Sign: an HMAC computed by hand over one
// SHA-256 state, which saves the allocations of hmac.New on every call.
type macState struct {
	h      hash.Hash
	pad    [sha256.BlockSize]byte
	out    [sha256.Size]byte
	prefix []byte
}

var macPool = sync.Pool{New: func() any { return &macState{h: sha256.New()} }}

// sum returns HMAC-SHA256(secret, apiKey|timestamp|body) (RFC 2104), in
// storage owned by s.
func (s *macState) sum(apiKey, secret string, timestamp int64, body []byte) []byte {
	h := s.h
	h.Reset()
	if len(secret) > sha256.BlockSize {
		s.prefix = append(s.prefix[:0], secret...)
		h.Write(s.prefix)
		key := h.Sum(s.out[:0])
		h.Reset()
		for i := range s.pad {
			s.pad[i] = 0x36
		}
		for i, b := range key {
			s.pad[i] ^= b
		}
	} else {
		for i := range s.pad {
			s.pad[i] = 0x36
		}
		for i := 0; i < len(secret); i++ {
			s.pad[i] ^= secret[i]
		}
	}
	s.prefix = append(s.prefix[:0], apiKey...)
	s.prefix = append(s.prefix, '|')
	s.prefix = strconv.AppendInt(s.prefix, timestamp, 10)
	s.prefix = append(s.prefix, '|')

	h.Write(s.pad[:])
	h.Write(s.prefix)
	h.Write(body)
	inner := h.Sum(s.out[:0])

	for i := range s.pad {
		s.pad[i] ^= 0x36 ^ 0x5c
	}
	h.Reset()
	h.Write(s.pad[:])
	h.Write(inner)
	return h.Sum(s.out[:0])
}
