package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// TestReview12WebhookSendStatusLineEscaped: a receiver's status line is
// text from another program; a terminal escape in it must not reach the
// operator's terminal raw (the body already goes through printable).
func TestReview12WebhookSendStatusLineEscaped(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func(c net.Conn) {
				defer c.Close()
				req, err := http.ReadRequest(bufio.NewReader(c))
				if err == nil {
					_ = req.Body.Close()
				}
				_, _ = c.Write([]byte("HTTP/1.1 200 OK \x1b]0;pwned\x07\x1b[2J\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"))
			}(c)
		}
	}()
	r := cli(t, hookEnv, "", "webhook", "send", "http://"+ln.Addr().String()+"/hooks")
	require.Equal(t, 0, r.code, r)
	assert.NotContains(t, r.stdout, "\x1b", "a terminal escape from the receiver reached stdout")
	assert.NotContains(t, r.stdout, "\x07")
	assert.Contains(t, r.stdout, `receiver answered: "200 OK \x1b]0;pwned\a\x1b[2J"`)
}

// TestReview12ReceiverClientLoopbackOnly: without -allow-remote the
// address actually dialed must be a loopback one, whatever the URL's name
// resolved to (a *.localhost name goes to DNS, which may answer with any
// address).
func TestReview12ReceiverClientLoopbackOnly(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, addr := range []string{"10.255.255.1:9", "192.0.2.1:80", "[2001:db8::1]:80", "0.0.0.0:9"} {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+addr+"/hooks", strings.NewReader("{}"))
		require.NoError(t, err)
		_, err = receiverClient(false).Do(req)
		require.Error(t, err, addr)
		assert.Contains(t, err.Error(), "not a loopback address", addr)
	}

	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(204) })}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	for _, host := range []string{"127.0.0.1", "localhost"} {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+net.JoinHostPort(host, port)+"/", strings.NewReader("{}"))
		require.NoError(t, err)
		resp, err := receiverClient(false).Do(req)
		require.NoError(t, err, host)
		resp.Body.Close()
		assert.Equal(t, 204, resp.StatusCode)
	}
}

// TestReview12SecretFileValueNotEchoed: an operator who passes the secret
// itself to -secret-file must not see it printed back in the error.
func TestReview12SecretFileValueNotEchoed(t *testing.T) {
	const secret = "sbx_secret_passed_as_a_path_by_mistake"
	env := []string{fiatramp.EnvAPIKey + "=k"}
	for _, args := range [][]string{
		{"sign", "-timestamp", "1700000000", "-secret-file", secret},
		{"webhook", "verify", "-secret-file", secret},
		{"webhook", "send", "-secret-file", secret, "http://127.0.0.1:9/"},
	} {
		r := cli(t, env, "{}", args...)
		assert.Equal(t, 2, r.code, r)
		assert.NotContains(t, r.stdout+r.stderr, secret, "%v", args)
		assert.Contains(t, r.stderr, "-secret-file", "%v", args)
	}
}

// zeros is an endless run of NUL bytes, as /dev/zero gives (a character
// device, so stdinIsTerminal takes it for a terminal), failing after max
// bytes so that an unbounded reader stops; n counts what was read.
type zeros struct{ n, max int }

func (z *zeros) Read(p []byte) (int, error) {
	if z.n >= z.max {
		return 0, errors.New("read too far")
	}
	m := min(len(p), z.max-z.n)
	clear(p[:m])
	z.n += m
	return m, nil
}

// TestReview12ConfirmReadsALineAtMost: the answer to the confirmation is
// read with a bound: "payouts create < /dev/zero" grew the process to
// tens of gigabytes looking for a line break.
func TestReview12ConfirmReadsALineAtMost(t *testing.T) {
	c := &command{name: "payouts create"}
	z := &zeros{max: 64 << 20}
	var errOut bytes.Buffer
	err := confirm(streams{in: z, err: &errOut, inTTY: true}, c, "Create?")
	require.Error(t, err, "NUL bytes are not a yes")
	assert.LessOrEqual(t, z.n, 4096, "bytes read looking for the answer")
	assert.Contains(t, errOut.String(), "not confirmed; nothing was sent")

	// A long answer is refused, not read to its end.
	long := strings.Repeat(" ", 1<<20) + "yes\n"
	err = confirm(streams{in: strings.NewReader(long), err: &errOut, inTTY: true}, c, "Create?")
	require.Error(t, err)
}
