package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// limitsConn opens a raw connection to the running command.
func limitsConn(t *testing.T, r *running) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.DialTimeout("tcp", strings.TrimPrefix(r.doc.BaseURL, "http://"), 5*time.Second)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c, bufio.NewReader(c)
}

// limitsGet sends an unsigned keep-alive GET on c and returns the status
// of its answer, or an error when none comes within wait.
func limitsGet(t *testing.T, c net.Conn, br *bufio.Reader, wait time.Duration) (int, error) {
	t.Helper()
	_, err := fmt.Fprintf(c, "GET /pos/api/v1/payout/balance HTTP/1.1\r\nHost: sandbox\r\n\r\n")
	require.NoError(t, err)
	require.NoError(t, c.SetReadDeadline(time.Now().Add(wait)))
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp.StatusCode, nil
}

// isTimeout reports whether err is a network timeout.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func TestSandboxIdleTimeoutFlag(t *testing.T) {
	r := start(t, "-idle-timeout", "200ms")
	c, br := limitsConn(t, r)
	status, err := limitsGet(t, c, br, 5*time.Second)
	require.NoError(t, err)
	assert.Equal(t, http.StatusUnauthorized, status)
	require.NoError(t, c.SetReadDeadline(time.Now().Add(3*time.Second)))
	_, err = io.Copy(io.Discard, br)
	assert.False(t, isTimeout(err), "idle connection still open after 3 s")
	require.NoError(t, r.stop(t))
}

func TestSandboxMaxConnsFlag(t *testing.T) {
	r := start(t, "-max-conns", "1")
	first, firstBr := limitsConn(t, r)
	_, err := limitsGet(t, first, firstBr, 5*time.Second)
	require.NoError(t, err)

	// At the cap, the second connection closes the idle first one.
	second, secondBr := limitsConn(t, r)
	status, err := limitsGet(t, second, secondBr, 5*time.Second)
	require.NoError(t, err, "not served at the cap")
	assert.Equal(t, http.StatusUnauthorized, status)
	require.NoError(t, first.SetReadDeadline(time.Now().Add(3*time.Second)))
	_, err = io.Copy(io.Discard, firstBr)
	assert.False(t, isTimeout(err), "the idle first connection still open over -max-conns 1")
	require.NoError(t, r.stop(t))
}

func TestSandboxReadTimeoutFlag(t *testing.T) {
	r := start(t, "-read-timeout", "300ms")
	c, br := limitsConn(t, r)
	// A body promised and never sent.
	_, err := fmt.Fprintf(c, "POST /cms/api/v1/wallet/add HTTP/1.1\r\nHost: sandbox\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{")
	require.NoError(t, err)
	require.NoError(t, c.SetReadDeadline(time.Now().Add(5*time.Second)))
	resp, err := http.ReadResponse(br, nil)
	require.NoError(t, err)
	_ = resp.Body.Close()
	assert.Equal(t, http.StatusRequestTimeout, resp.StatusCode)
	require.NoError(t, r.stop(t))
}

func TestSandboxLimitFlagsRefused(t *testing.T) {
	for _, bad := range [][]string{
		{"-read-header-timeout", "-1s"},
		{"-read-timeout", "-1ms"},
		{"-write-timeout", "-2s"},
		{"-idle-timeout", "-1s"},
		{"-max-conns", "-1"},
		{"-max-conns", "many"},
		{"-read-timeout", "30"},
	} {
		var out, errOut bytes.Buffer
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err := run(ctx, append([]string{"sandbox", "-addr", "127.0.0.1:0"}, bad...), &out, &errOut)
		require.Error(t, err, "%v", bad)
		assert.Equal(t, 2, exitCode(err, io.Discard), "%v: %v", bad, err)
		assert.Contains(t, errOut.String(), bad[0], "%v", bad)
		assert.Empty(t, out.String())
	}

	var out bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"help", "sandbox"}, &out, io.Discard))
	for _, f := range []string{"-read-header-timeout", "-read-timeout", "-write-timeout", "-idle-timeout", "-max-conns", "(default 4096)", "(default 30s)", "(default 1m0s)", "(default 2m0s)", "(default 10s)"} {
		assert.Contains(t, out.String(), f)
	}
}
