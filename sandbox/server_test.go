package sandbox_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/sandbox"
)

// netServer serves a fresh sandbox with the given limits, closed at the
// end of the test.
func netServer(t *testing.T, mod func(*sandbox.ServerSettings)) *sandbox.Server {
	t.Helper()
	srv, err := sandbox.NewServer(sandbox.New(), mod)
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	return srv
}

// netDial opens a raw connection to srv.
func netDial(t *testing.T, srv *sandbox.Server) net.Conn {
	t.Helper()
	c, err := net.DialTimeout("tcp", strings.TrimPrefix(srv.URL, "http://"), 5*time.Second)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// netGet sends a keep-alive GET on c (an unsigned one: the 401 is answer
// enough) and reads its answer.
func netGet(t *testing.T, c net.Conn, br *bufio.Reader) *http.Response {
	t.Helper()
	_, err := fmt.Fprintf(c, "GET /pos/api/v1/payout/balance HTTP/1.1\r\nHost: sandbox\r\n\r\n")
	require.NoError(t, err)
	require.NoError(t, c.SetReadDeadline(time.Now().Add(5*time.Second)))
	resp, err := http.ReadResponse(br, nil)
	require.NoError(t, err)
	_, err = io.Copy(io.Discard, resp.Body)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	return resp
}

// netClosedWithin asserts that the server closes c within d: a read ends in
// EOF (or a reset), not in the test's own deadline. It returns the wait.
// Callers give d generously (10 s against timeouts of a fraction of a
// second): the test is that the server closes the connection at all, and a
// loaded machine must not make it fail.
func netClosedWithin(t *testing.T, c net.Conn, br *bufio.Reader, d time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	require.NoError(t, c.SetReadDeadline(start.Add(d)))
	_, err := io.Copy(io.Discard, br)
	var ne net.Error
	require.False(t, errors.As(err, &ne) && ne.Timeout(), "connection still open after %v", d)
	return time.Since(start)
}

func TestServerDefaults(t *testing.T) {
	def := sandbox.DefaultServerSettings()
	assert.Equal(t, sandbox.ServerSettings{
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxConns:          4096,
		MinReadRate:       500,
		ReadRateGrace:     5 * time.Second,
	}, def)

	srv, err := sandbox.NewServer(sandbox.New())
	require.NoError(t, err)
	defer srv.Close()
	hs := sandbox.HTTPServer(srv)
	assert.Equal(t, def.ReadHeaderTimeout, hs.ReadHeaderTimeout)
	assert.Equal(t, def.ReadTimeout, hs.ReadTimeout)
	assert.Equal(t, def.WriteTimeout, hs.WriteTimeout)
	assert.Equal(t, def.IdleTimeout, hs.IdleTimeout)

	srv2 := netServer(t, func(s *sandbox.ServerSettings) {
		*s = sandbox.ServerSettings{ReadHeaderTimeout: 1 * time.Second, ReadTimeout: 2 * time.Second, WriteTimeout: 3 * time.Second, IdleTimeout: 4 * time.Second}
	})
	hs = sandbox.HTTPServer(srv2)
	assert.Equal(t, []time.Duration{1 * time.Second, 2 * time.Second, 3 * time.Second, 4 * time.Second},
		[]time.Duration{hs.ReadHeaderTimeout, hs.ReadTimeout, hs.WriteTimeout, hs.IdleTimeout})
}

func TestServerRefusesNegativeLimits(t *testing.T) {
	for name, mod := range map[string]func(*sandbox.ServerSettings){
		"ReadHeaderTimeout": func(s *sandbox.ServerSettings) { s.ReadHeaderTimeout = -1 },
		"ReadTimeout":       func(s *sandbox.ServerSettings) { s.ReadTimeout = -time.Second },
		"WriteTimeout":      func(s *sandbox.ServerSettings) { s.WriteTimeout = -1 },
		"IdleTimeout":       func(s *sandbox.ServerSettings) { s.IdleTimeout = -1 },
		"MaxConns":          func(s *sandbox.ServerSettings) { s.MaxConns = -1 },
		"MinReadRate":       func(s *sandbox.ServerSettings) { s.MinReadRate = -1 },
		"ReadRateGrace":     func(s *sandbox.ServerSettings) { s.ReadRateGrace = -1 },
	} {
		srv, err := sandbox.Listen(sandbox.New(), "127.0.0.1:0", mod)
		require.Error(t, err, name)
		assert.Nil(t, srv)
		assert.Contains(t, err.Error(), name)
	}
}

// A client that sends its body a byte at a time is cut off at ReadTimeout
// with a 408, and its connection closed; nothing was done.
func TestServerSlowBodyCutOff(t *testing.T) {
	srv := netServer(t, func(s *sandbox.ServerSettings) { s.ReadTimeout = 300 * time.Millisecond })
	c := netDial(t, srv)
	const bodyLen = 100
	_, err := fmt.Fprintf(c, "POST /cms/api/v1/wallet/add HTTP/1.1\r\nHost: sandbox\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{", bodyLen)
	require.NoError(t, err)
	// One byte every 50 ms: the whole body would take 5 s.
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for range bodyLen - 1 {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			if _, err := c.Write([]byte(" ")); err != nil {
				return
			}
		}
	}()

	start := time.Now()
	require.NoError(t, c.SetReadDeadline(start.Add(4*time.Second)))
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	require.NoError(t, err, "no answer before the body would have ended")
	raw, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	assert.Less(t, time.Since(start), 3*time.Second)
	assert.Equal(t, http.StatusRequestTimeout, resp.StatusCode)
	assert.JSONEq(t, `{"status":false,"message":"Request body not received in time.","data":null}`, string(raw))
	assert.True(t, resp.Close, "Connection: close")
	netClosedWithin(t, c, br, 10*time.Second)
	assert.Equal(t, 1, srv.Sandbox().Stats().Requests)
}

// A connection that sends nothing is closed at ReadHeaderTimeout; a
// kept-alive one that sends no next request, at IdleTimeout.
func TestServerIdleConnectionsClosed(t *testing.T) {
	srv := netServer(t, func(s *sandbox.ServerSettings) {
		s.ReadHeaderTimeout = 200 * time.Millisecond
		s.IdleTimeout = 200 * time.Millisecond
	})

	silent := netDial(t, srv)
	waited := netClosedWithin(t, silent, bufio.NewReader(silent), 10*time.Second)
	t.Logf("silent connection closed after %v", waited)

	kept := netDial(t, srv)
	br := bufio.NewReader(kept)
	resp := netGet(t, kept, br)
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	assert.False(t, resp.Close, "kept alive after the answer")
	waited = netClosedWithin(t, kept, br, 10*time.Second)
	t.Logf("idle connection closed after %v", waited)
}

// netHold serves sb with MaxConns n and holds every request that carries
// an X-Hold header inside its handler until release is closed; parked
// receives one value per request held.
func netHold(t *testing.T, n int) (srv *sandbox.Server, parked <-chan struct{}, release chan struct{}) {
	t.Helper()
	sb := sandbox.New()
	p, release := make(chan struct{}, 16), make(chan struct{})
	sandbox.SetParseHook(sb, func(r *http.Request) {
		if r.Header.Get("X-Hold") != "" {
			p <- struct{}{}
			<-release
		}
	})
	srv, err := sandbox.NewServer(sb, func(s *sandbox.ServerSettings) { s.MaxConns = n })
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	return srv, p, release
}

// netSendHeld sends a request on c that netHold's server holds, and waits
// until it is held.
func netSendHeld(t *testing.T, c net.Conn, parked <-chan struct{}) {
	t.Helper()
	_, err := fmt.Fprintf(c, "GET /pos/api/v1/payout/balance HTTP/1.1\r\nHost: sandbox\r\nX-Hold: 1\r\n\r\n")
	require.NoError(t, err)
	select {
	case <-parked:
	case <-time.After(5 * time.Second):
		t.Fatal("request never reached its handler")
	}
}

// With MaxConns 2 and both connections idle between requests, a third
// connection closes an idle one and is served: idle connections cannot
// keep a new caller out. Which one is closed is not asserted here: the
// server marks a connection idle (http.StateIdle) after writing its
// answer, so on a loaded machine the second connection may be marked idle
// before the first; the order (the one idle longest) is
// TestConnTrackerShedOrder's, in internal/connguard.
func TestServerConnectionCapClosesIdle(t *testing.T) {
	srv := netServer(t, func(s *sandbox.ServerSettings) { s.MaxConns = 2 })
	var held []net.Conn
	var brs []*bufio.Reader
	for range 2 {
		c := netDial(t, srv)
		br := bufio.NewReader(c)
		resp := netGet(t, c, br)
		require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
		held, brs = append(held, c), append(brs, br)
	}

	third := netDial(t, srv)
	start := time.Now()
	resp := netGet(t, third, bufio.NewReader(third))
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	t.Logf("third connection served in %v", time.Since(start))
	// The closed one was closed before the third was served: a read on it
	// ends at once, while a read on the other waits for its deadline.
	closed, open := 0, 1
	require.NoError(t, held[0].SetReadDeadline(time.Now().Add(2*time.Second)))
	if _, err := io.Copy(io.Discard, brs[0]); isTimeout(err) {
		closed, open = 1, 0
	}
	netClosedWithin(t, held[closed], brs[closed], 10*time.Second)
	resp = netGet(t, held[open], brs[open])
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, "the other idle connection is still served")
}

// isTimeout reports whether err is a network timeout.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// With MaxConns 2 and both connections' requests being answered, a third
// connection is not served until one of them is answered: the cap bounds
// the connections, and a request in progress is never cut off to make
// room.
func TestServerConnectionCapWaitsForRequests(t *testing.T) {
	srv, parked, release := netHold(t, 2)
	var held []net.Conn
	for range 2 {
		c := netDial(t, srv)
		netSendHeld(t, c, parked)
		held = append(held, c)
	}

	third := netDial(t, srv) // the kernel completes the handshake; the server does not accept
	_, err := fmt.Fprintf(third, "GET /pos/api/v1/payout/balance HTTP/1.1\r\nHost: sandbox\r\n\r\n")
	require.NoError(t, err)
	br := bufio.NewReader(third)
	require.NoError(t, third.SetReadDeadline(time.Now().Add(500*time.Millisecond)))
	_, err = br.ReadByte()
	var ne net.Error
	require.True(t, errors.As(err, &ne) && ne.Timeout(), "third connection served over the cap: %v", err)

	close(release)
	for _, c := range held {
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		require.NoError(t, err, "a held request is answered, not cut off")
		_ = resp.Body.Close()
		assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	}
	require.NoError(t, third.SetReadDeadline(time.Now().Add(5*time.Second)))
	resp, err := http.ReadResponse(br, nil)
	require.NoError(t, err, "served once a request is answered")
	_ = resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
}

// Closing a server whose cap is reached returns, and ends the connections
// waiting to be accepted.
func TestServerCloseAtCap(t *testing.T) {
	srv, parked, release := netHold(t, 1)
	defer close(release)
	c := netDial(t, srv)
	netSendHeld(t, c, parked)
	waiting := netDial(t, srv)
	done := make(chan error, 1)
	go func() { done <- srv.Close() }()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not return")
	}
	netClosedWithin(t, c, bufio.NewReader(c), 10*time.Second)
	netClosedWithin(t, waiting, bufio.NewReader(waiting), 10*time.Second)
}

// A request head or body that arrives slower than MinReadRate once
// ReadRateGrace has passed is given up long before the timeouts (10 s for
// the head, 30 s for the whole request); one that keeps above the rate is
// served, although it takes longer than the grace.
func TestServerMinReadRate(t *testing.T) {
	srv := netServer(t, func(s *sandbox.ServerSettings) {
		s.MinReadRate = 100
		s.ReadRateGrace = 300 * time.Millisecond
	})
	// trickle writes s on c, n bytes every pause, until stop or an error.
	trickle := func(c net.Conn, s string, n int, pause time.Duration, stop <-chan struct{}) {
		for len(s) > 0 {
			k := min(n, len(s))
			if _, err := io.WriteString(c, s[:k]); err != nil {
				return
			}
			s = s[k:]
			select {
			case <-stop:
				return
			case <-time.After(pause):
			}
		}
	}
	stop := make(chan struct{})
	defer close(stop)

	silent := netDial(t, srv)
	waited := netClosedWithin(t, silent, bufio.NewReader(silent), 10*time.Second)
	t.Logf("a connection that sends nothing closed after %v", waited)

	// 10 bytes a second, a tenth of the rate.
	slowHead := netDial(t, srv)
	go trickle(slowHead, "GET /pos/api/v1/payout/balance HTTP/1.1\r\nHost: sandbox\r\nX-Pad: "+strings.Repeat("a", 200)+"\r\n\r\n", 1, 100*time.Millisecond, stop)
	waited = netClosedWithin(t, slowHead, bufio.NewReader(slowHead), 10*time.Second)
	t.Logf("a head at 10 bytes/s closed after %v", waited)

	slowBody := netDial(t, srv)
	_, err := fmt.Fprintf(slowBody, "POST /cms/api/v1/wallet/add HTTP/1.1\r\nHost: sandbox\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n")
	require.NoError(t, err)
	start := time.Now()
	go trickle(slowBody, "{"+strings.Repeat(" ", 998)+"}", 1, 100*time.Millisecond, stop)
	require.NoError(t, slowBody.SetReadDeadline(start.Add(5*time.Second)))
	br := bufio.NewReader(slowBody)
	resp, err := http.ReadResponse(br, nil)
	require.NoError(t, err, "a body at 10 bytes/s is answered before it ends")
	raw, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	t.Logf("a body at 10 bytes/s answered after %v", time.Since(start))
	assert.Equal(t, http.StatusRequestTimeout, resp.StatusCode)
	assert.JSONEq(t, `{"status":false,"message":"Request body not received in time.","data":null}`, string(raw))
	netClosedWithin(t, slowBody, br, 10*time.Second)

	// 400 bytes a second, four times the rate, for about a second.
	steady := netDial(t, srv)
	head := "GET /pos/api/v1/payout/balance HTTP/1.1\r\nHost: sandbox\r\nX-Pad: " + strings.Repeat("a", 300) + "\r\n\r\n"
	start = time.Now()
	go trickle(steady, head, 20, 50*time.Millisecond, stop)
	require.NoError(t, steady.SetReadDeadline(start.Add(5*time.Second)))
	resp, err = http.ReadResponse(bufio.NewReader(steady), nil)
	require.NoError(t, err, "a head above the rate is served")
	_ = resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	assert.Greater(t, time.Since(start), 300*time.Millisecond, "the head took longer than the grace")
}

// The wait of a FaultDelay does not count against WriteTimeout.
func TestServerDelayFaultOutlastsWriteTimeout(t *testing.T) {
	e := newEnvServer(t, func(s *sandbox.ServerSettings) { s.WriteTimeout = 200 * time.Millisecond })
	faultInject(t, e.sb, sandbox.Fault{Kind: sandbox.FaultDelay, Delay: 500 * time.Millisecond, Count: 1})
	start := time.Now()
	r := authSend(t, e, authGet(e))
	authOK(t, r, http.StatusOK)
	assert.GreaterOrEqual(t, time.Since(start), 500*time.Millisecond)
}

// newEnvServer is newEnv served with the given server limits.
func newEnvServer(t *testing.T, mod func(*sandbox.ServerSettings)) *env {
	t.Helper()
	e := newEnv(t)
	srv, err := sandbox.NewServer(e.sb, mod)
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	e.srv = srv
	e.client = e.clientFor(e.org)
	return e
}

// Every known path answers a method it does not serve with 405 and an
// Allow header listing the ones it does.
func TestServerMethodNotAllowedAllow(t *testing.T) {
	const remit = "/pos/api/v1/remit/go"
	e := newEnv(t, func(s *sandbox.Settings) { s.RemittancePayoutPath = remit })
	id := uuid.NewString()
	for _, tc := range []struct{ path, allow string }{
		{"/pos/api/v1/prefunded/payout/initiate", "POST"},
		{"/pos/api/v1/payout/initiate", "GET, POST"}, // GET fetches payout "initiate"
		{remit, "POST"},
		{"/pos/api/v1/payout/balance", "GET"},
		{"/pos/api/v1/payout/mock-payout-status", "GET, PATCH"},
		{"/pos/api/v1/payout/" + id, "GET"},
		{"/pos/api/v1/payout/", "GET"}, // an empty payout id
		{"/cms/api/v1/wallet/add", "POST"},
		{"/cms/api/v1/kyc/mock-kyc-status", "PATCH"},
		{"/cms/api/v1/kyc/configuration/" + id, "GET"},
		{"/cms/api/v1/bank/list/" + id, "GET"},
		{"/cms/api/v1/bank/" + id + "/" + id, "GET"},
		{"/pis/api/v1/payin/quotation", "GET, POST"}, // GET fetches payin "quotation"
		{"/pis/api/v1/payin/quotation/" + id, "GET"},
		{"/cms/api/v1/bank/mock-bank-verification", "POST"},
		{"/pis/api/v1/payin/mock-payin-status", "GET, PATCH"},
		{"/org/api/v1/organizations/api-webhooks", "POST"},
		{"/pis/api/v1/payin/initiate", "GET, POST"},
		{"/pis/api/v1/payin/history", "GET"},
		{"/pis/api/v1/payin/update-transfer-id", "GET, PATCH"},
		{"/pis/api/v1/payin/" + id, "GET"},
	} {
		for _, method := range []string{http.MethodGet, http.MethodPost, http.MethodPatch, http.MethodPut, http.MethodDelete, http.MethodHead, http.MethodOptions} {
			if strings.Contains(tc.allow, method) {
				continue
			}
			req, err := http.NewRequestWithContext(ctx(t), method, e.srv.URL+tc.path, nil)
			require.NoError(t, err)
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			raw, _ := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			what := method + " " + tc.path
			assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode, what)
			assert.Equal(t, []string{tc.allow}, resp.Header.Values("Allow"), what)
			if method != http.MethodHead {
				assert.JSONEq(t, `{"status":false,"message":"Method \"`+method+`\" not allowed.","data":null}`, string(raw), what)
			}
		}
	}
	// An unknown path is 404, with no Allow.
	resp, err := http.Post(e.srv.URL+"/pos/api/v1/nothing", "application/json", nil)
	require.NoError(t, err)
	_ = resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	assert.Empty(t, resp.Header.Values("Allow"))
}

// While organization A's body is being parsed, the state lock is free:
// organization B is served from start to end while A's request is held
// inside its parse.
func TestHostileParseHoldsNoLock(t *testing.T) {
	sb := sandbox.New()
	sb.SetTime(epoch)
	parked, release := make(chan struct{}), make(chan struct{})
	var orgA sandbox.Organization
	sandbox.SetParseHook(sb, func(r *http.Request) {
		if r.Header.Get("X-API-KEY") == orgA.APIKey {
			close(parked)
			<-release
		}
	})
	var err error
	orgA, err = sb.AddOrganization(sandbox.Organization{Name: "A"})
	require.NoError(t, err)
	orgB, err := sb.AddOrganization(sandbox.Organization{Name: "B"})
	require.NoError(t, err)
	custB, err := sb.AddCustomer(sandbox.Customer{OrganizationID: orgB.ID, Name: "Bea"})
	require.NoError(t, err)
	srv, err := sandbox.NewServer(sb)
	require.NoError(t, err)
	defer srv.Close()

	type result struct {
		status int
		err    error
	}
	aDone := make(chan result, 1)
	go func() {
		body := []byte(`{"customer_id":"` + uuid.NewString() + `","wallet_address":"0xabc"}`)
		status, _, err := hostileSend(ctx(t), epoch.Unix(), srv.URL, orgA, http.MethodPost, "/cms/api/v1/wallet/add", body)
		aDone <- result{status, err}
	}()
	select {
	case <-parked:
	case <-time.After(5 * time.Second):
		close(release)
		t.Fatal("A's request never reached its parse")
	}

	bCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	status, waited, err := hostileSend(bCtx, epoch.Unix(), srv.URL, orgB, http.MethodGet, "/cms/api/v1/kyc/configuration/"+custB.ID.String(), nil)
	close(release)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, status, "B served while A parses")
	t.Logf("B served in %v while A's parse was held", waited)

	select {
	case res := <-aDone:
		require.NoError(t, res.err)
		assert.Equal(t, http.StatusBadRequest, res.status, "A's unknown customer, answered after its parse")
	case <-time.After(5 * time.Second):
		t.Fatal("A's request did not finish")
	}
}
