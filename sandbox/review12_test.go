package sandbox_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/sandbox"
)

// rawRequest sends path as written on the request line, unparsed by Go's
// client (which would clean or escape it).
func rawRequest(t *testing.T, base, method, path, auth string) int {
	t.Helper()
	host := strings.TrimPrefix(base, "http://")
	conn, err := net.Dial("tcp", host)
	require.NoError(t, err)
	defer conn.Close()
	req := fmt.Sprintf("%s %s HTTP/1.1\r\nHost: %s\r\nContent-Length: 0\r\nConnection: close\r\n", method, path, host)
	if auth != "" {
		req += "Authorization: " + auth + "\r\n"
	}
	_, err = conn.Write([]byte(req + "\r\n"))
	require.NoError(t, err)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	resp.Body.Close()
	return resp.StatusCode
}

func TestReview12ControlPathTricksNeedToken(t *testing.T) {
	e := newCtlEnv(t)
	before := e.sb.Payouts(e.org.ID)
	_ = before
	for _, p := range []string{
		"/_sandbox/reset", "//_sandbox/reset", "/_sandbox//reset", "/_sandbox/reset/",
		"/_sandbox/./reset", "/_sandbox/x/../reset", "/_sandbox%2Freset", "/%5Fsandbox/reset",
		"/_SANDBOX/reset", "/pos/../_sandbox/reset", "http://x/_sandbox/reset", "/_sandbox/reset?x=1",
		"/_sandbox/reset#", "/_sandbox/reset%00", "/_sandbox;/reset",
	} {
		for _, m := range []string{"POST", "GET", "HEAD", "OPTIONS", "post"} {
			st := rawRequest(t, e.srv.URL, m, p, "")
			assert.NotEqual(t, http.StatusOK, st, "%s %s", m, p)
			assert.NotEqual(t, http.StatusCreated, st, "%s %s", m, p)
		}
	}
	_, ok := e.sb.Organization(e.org.ID)
	assert.True(t, ok, "the sandbox was reset without the token")
}

func TestReview12ControlResetWhileRequestsInFlight(t *testing.T) {
	e := newCtlEnv(t)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				_, _ = e.client.Payouts.Balance(context.Background())
				_, _ = e.client.Customers.ListBankAccounts(context.Background(), e.cust.ID)
			}
		}()
	}
	for i := 0; i < 30; i++ {
		e.call("POST", "/_sandbox/reset", `{"seed_demo":true}`)
		e.call("POST", "/_sandbox/clock/advance", `{"seconds":1}`)
		e.call("GET", "/_sandbox/stats", "")
		e.call("POST", "/_sandbox/faults", `{"kind":"internal_error","count":1}`)
		e.call("DELETE", "/_sandbox/faults", "")
	}
	close(stop)
	wg.Wait()
}

func TestReview12ControlKeys(t *testing.T) {
	e := newCtlEnv(t)
	for _, body := range []string{
		`{"Seconds":5}`, `{"seconds":5,"SECONDS":6}`, `{"seconds":5,"seconds":"x"}`,
	} {
		a := e.call("POST", "/_sandbox/clock/advance", body)
		assert.Equal(t, http.StatusBadRequest, a.status, "%s: %s", body, a)
	}
	a := e.call("POST", "/_sandbox/fixtures", `{"organizations":[{"Name":"x","name":"y"}]}`)
	assert.Equal(t, http.StatusBadRequest, a.status, "%s", a)
	a = e.call("POST", "/_sandbox/fixtures", `{"Organizations":[{"name":"y"}]}`)
	assert.Equal(t, http.StatusBadRequest, a.status, "%s", a)
}

// TestReview12ServerFormatHidesControlToken: a test that logs its server
// (t.Logf("%+v", srv)) must not put the admin token in CI logs.
func TestReview12ServerFormatHidesControlToken(t *testing.T) {
	srv, err := sandbox.NewServer(sandbox.New(), sandbox.WithControl(""))
	require.NoError(t, err)
	// Closed first: fmt walks the http.Server its serving goroutine writes.
	require.NoError(t, srv.Close())
	tok := srv.ControlToken()
	require.NotEmpty(t, tok)
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%x", "%q"} {
		assert.NotContains(t, fmt.Sprintf(verb, srv), tok, verb)
		assert.NotContains(t, fmt.Sprintf(verb, *srv), tok, verb)
		assert.NotContains(t, fmt.Sprintf(verb, srv), fmt.Sprintf("%x", tok), verb)
		assert.NotContains(t, fmt.Sprintf(verb, *srv), fmt.Sprintf("%x", tok), verb)
	}
}
