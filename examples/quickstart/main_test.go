package main

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// TestStory runs the quickstart against the embedded sandbox and checks
// that the payout's webhook arrived.
func TestStory(t *testing.T) {
	t.Setenv(fiatramp.EnvAPIKey, "")
	r, w, err := os.Pipe()
	require.NoError(t, err)
	stdout := os.Stdout
	os.Stdout = w
	defer func() { os.Stdout = stdout }()
	out := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		out <- string(b)
	}()

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err = run(ctx)
	os.Stdout = stdout
	require.NoError(t, w.Close())
	text := <-out
	require.NoError(t, err, text)
	require.Regexp(t, `(?m)^   webhook: PAYOUT [0-9a-f-]{36} SUCCESS, utr \d{12} \(signature verified\)$`, text)
	require.True(t, strings.HasSuffix(strings.TrimSpace(text), "serves this sandbox to programs in any language."), text)
}
