package types_test

import (
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
