package types_test

import (
	"encoding/json"
	"testing"

	"github.com/fiatramp/fiatramp-go/types"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"
)

// TestCompilePlanRefusesWhatItCannotDecode: a tag or field the decoder
// does not understand fails when the package loads, never at decode time.
func TestCompilePlanRefusesWhatItCannotDecode(t *testing.T) {
	type strs map[string]string
	require.Panics(t, func() { types.CompilePlan[struct{ A string }]() }, "no member name")
	require.Panics(t, func() {
		types.CompilePlan[struct {
			A string `json:"-"`
		}]()
	}, "no member name")
	require.Panics(t, func() {
		types.CompilePlan[struct {
			A string `json:"a" fiatramp:"lower"`
		}]()
	}, "unknown option")
	require.Panics(t, func() {
		types.CompilePlan[struct {
			A string `json:"-" fiatramp:"raw"`
		}]()
	}, "raw not RawMessage")
	require.Panics(t, func() {
		types.CompilePlan[struct {
			A strs `json:"-" fiatramp:"rest"`
		}]()
	}, "rest of strings")
	require.Panics(t, func() {
		types.CompilePlan[struct {
			A string `json:"a" fiatramp:"brand=fee"`
		}]()
	}, "brand not decimal")
	require.Panics(t, func() {
		types.CompilePlan[struct {
			A decimal.Decimal `json:"a" fiatramp:"brand=fee"`
		}]()
	}, "brand, no rest")
	require.Panics(t, func() {
		types.CompilePlan[struct {
			A *linkBox `json:"a" fiatramp:"fromrest"`
		}]()
	}, "fromrest, no rest")
	require.Panics(t, func() {
		types.CompilePlan[struct {
			A string `json:"a"`
			B string `json:"b" fiatramp:"alias=a.b"`
		}]()
	}, "alias inside a member that is no object")
	require.Panics(t, func() {
		types.CompilePlan[struct {
			A string `json:"a"`
			B string `json:"b" fiatramp:"alias=a"`
		}]()
	}, "alias named twice")
	require.Panics(t, func() {
		types.CompilePlan[struct {
			A string `json:"a" fiatramp:"alias=a1"`
			B string `json:"b" fiatramp:"alias=b1"`
			C string `json:"c" fiatramp:"alias=c1"`
			D string `json:"d" fiatramp:"alias=d1"`
			E string `json:"e" fiatramp:"alias=e1"`
		}]()
	}, "more aliases than a frame holds")
	require.NotPanics(t, func() { types.CompilePlan[aliasAccount]() })
	require.NotPanics(t, func() { types.CompilePlan[nestedAlias]() })
}

// rawInner and rawOuter are a result nested in another, both with Raw.
type rawInner struct {
	N   int             `json:"n"`
	Raw json.RawMessage `json:"-" fiatramp:"raw"`
}

type rawOuter struct {
	In   rawInner            `json:"in"`
	ByID map[string]rawInner `json:"by_id"`
	Raw  json.RawMessage     `json:"-" fiatramp:"raw"`
}

func TestNestedRawSharesTheOuterCopy(t *testing.T) {
	const in, other = `{"n": 1}`, `{"n":2 }`
	body := `{"in":` + in + `,"by_id":{"k":` + other + `}}`
	input := []byte(body)
	var v rawOuter
	require.NoError(t, types.DecodeAs(&v, input))
	for i := range input {
		input[i] = 'x'
	}
	require.Equal(t, body, string(v.Raw), "Raw must not alias the input")
	require.Equal(t, in, string(v.In.Raw))
	require.Equal(t, other, string(v.ByID["k"].Raw))
	for _, raw := range []json.RawMessage{v.In.Raw, v.ByID["k"].Raw} {
		require.Equal(t, len(raw), cap(raw), "capacity must be clipped")
		require.True(t, within(raw, v.Raw), "%s must be a part of the outer copy", raw)
	}

	// Without a Raw above it, a nested Raw is a copy of its own.
	var bare struct {
		In rawInner `json:"in"`
	}
	input = []byte(body)
	require.NoError(t, types.DecodeAs(&bare, input))
	for i := range input {
		input[i] = 'x'
	}
	require.Equal(t, in, string(bare.In.Raw), "Raw must not alias the input")
}
