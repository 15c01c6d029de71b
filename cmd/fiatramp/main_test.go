package main

// The command line itself: run, help and usage errors.

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHelpAndUsageErrors(t *testing.T) {
	runNow := func(args ...string) (string, string, error) {
		var out, errOut bytes.Buffer
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // none of these may serve
		err := run(ctx, args, &out, &errOut)
		return out.String(), errOut.String(), err
	}

	out, errOut, err := runNow("help")
	require.NoError(t, err)
	assert.Contains(t, out, "fiatramp sandbox [flags]")
	assert.Empty(t, errOut)
	assert.Equal(t, 0, exitCode(err, io.Discard))

	out, _, err = runNow("help", "sandbox")
	require.NoError(t, err)
	for _, f := range []string{"-addr", "-fixtures", "-no-demo", "-page-size", "-seed", "-public-url", "-remittance-path", "127.0.0.1:4010"} {
		assert.Contains(t, out, f)
	}

	_, errOut, err = runNow()
	require.Error(t, err)
	assert.Contains(t, errOut, "Usage:")
	assert.Equal(t, 2, exitCode(err, io.Discard))

	_, errOut, err = runNow("serve")
	require.EqualError(t, err, `unknown command "serve"`)
	assert.Contains(t, errOut, `unknown command "serve"`)
	assert.Contains(t, errOut, "Usage:")
	assert.Equal(t, 2, exitCode(err, io.Discard))

	_, errOut, err = runNow("sandbox", "-port", "80")
	require.EqualError(t, err, "flag provided but not defined: -port")
	assert.Contains(t, errOut, "-remittance-path", "flag usage printed")
	assert.Equal(t, 2, exitCode(err, io.Discard))

	_, errOut, err = runNow("sandbox", "-addr", "127.0.0.1:0", "extra")
	require.EqualError(t, err, `unexpected argument "extra"`)
	assert.Contains(t, errOut, "Usage: fiatramp sandbox")
	assert.Equal(t, 2, exitCode(err, io.Discard))

	for _, bad := range [][]string{
		{"-page-size", "0"},
		{"-page-size", "x"},
		{"-seed", "-1"},
		{"-public-url", "sandbox.example.test"},
		{"-public-url", "ftp://x/"},
		{"-remittance-path", "remit"},
		{"-remittance-path", "/"},
	} {
		_, _, err = runNow(append([]string{"sandbox", "-addr", "127.0.0.1:0"}, bad...)...)
		require.Error(t, err, "%v", bad)
		assert.Equal(t, 2, exitCode(err, io.Discard), "%v: %v", bad, err)
	}

	out, errOut, err = runNow("sandbox", "-h")
	require.NoError(t, err)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "-fixtures")
}

// TestHelpEveryCommand: "fiatramp help X" prints X's help on stdout and
// exits 0 for every command, every group, the sandbox and help itself.
func TestHelpEveryCommand(t *testing.T) {
	helpOf := func(args ...string) (string, string, int) {
		var out, errOut bytes.Buffer
		err := run(context.Background(), append([]string{"help"}, args...), &out, &errOut)
		return out.String(), errOut.String(), exitCode(err, io.Discard)
	}
	want := map[string]string{
		"help":    "Usage: fiatramp help [COMMAND]\n",
		"sandbox": "Usage: fiatramp sandbox [flags]\n",
	}
	for _, c := range commands() {
		want[c.name] = "Usage: " + c.synopsis() + "\n"
		if words := strings.Fields(c.name); len(words) > 1 {
			want[words[0]] = "Commands of fiatramp " + words[0] + ":\n"
		}
	}
	for name, head := range want {
		out, errOut, code := helpOf(strings.Fields(name)...)
		assert.Equal(t, 0, code, "fiatramp help %s: %s", name, errOut)
		assert.Empty(t, errOut, name)
		assert.True(t, strings.HasPrefix(out, head), "fiatramp help %s printed:\n%s", name, out)
	}
	out, _, _ := helpOf("help")
	assert.Contains(t, out, "\nExample:\n\n\tfiatramp help payouts create\n")
	for _, word := range []string{"-h", "--help"} {
		same, _, code := helpOf(word)
		assert.Equal(t, 0, code, word)
		assert.Equal(t, out, same, word)
	}

	for _, bad := range [][]string{{"help", "help"}, {"sandbox", "extra"}, {"payouts", "get", "extra"}, {"nothing"}} {
		_, errOut, code := helpOf(bad...)
		assert.Equal(t, 2, code, "%v", bad)
		assert.Contains(t, errOut, "fiatramp help: unknown command", "%v", bad)
	}
}
