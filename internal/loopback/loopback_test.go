package loopback_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/internal/loopback"
)

func TestIsLocalHost(t *testing.T) {
	for host, local := range map[string]bool{
		"localhost": true, "LOCALHOST": true, "localhost.": true, "api.localhost": true,
		"127.0.0.1": true, "127.8.9.10": true, "::1": true, "::ffff:127.0.0.1": true,
		"": false, "example.com": false, "localhost.example.com": false, "mylocalhost": false,
		"10.0.0.1": false, "192.168.1.1": false, "0.0.0.0": false, "::": false, "128.0.0.1": false,
		"169.254.169.254": false, "fe80::1": false,
	} {
		assert.Equal(t, local, loopback.IsLocalHost(host), host)
	}
}

func TestElsewhere(t *testing.T) {
	for raw, why := range map[string]string{
		"http://127.0.0.1:8080/hooks":      "",
		"http://[::1]:9/x":                 "",
		"http://localhost/hooks":           "",
		"https://hooks.example.com/x":      `host "hooks.example.com" is not this machine (localhost or a loopback address)`,
		"http://10.1.2.3/x":                `host "10.1.2.3" is not this machine (localhost or a loopback address)`,
		"http://127.0.0.1.example.com/x":   `host "127.0.0.1.example.com" is not this machine (localhost or a loopback address)`,
		"http://user@localhost.evil.com/x": `host "localhost.evil.com" is not this machine (localhost or a loopback address)`,
	} {
		assert.Equal(t, why, loopback.Elsewhere(raw), raw)
	}
	assert.Contains(t, loopback.Elsewhere("http://%zz/"), "does not parse")
}

// Control lets a connection to a loopback receiver through and refuses
// one to any other address before anything is sent.
func TestControl(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer srv.Close()
	d := &net.Dialer{Timeout: time.Second, Control: loopback.Control}
	c, err := d.Dial("tcp", srv.Listener.Addr().String())
	require.NoError(t, err)
	require.NoError(t, c.Close())

	assert.EqualError(t, loopback.Control("tcp4", "192.0.2.1:80", nil), "192.0.2.1:80 is not a loopback address")
	assert.Error(t, loopback.Control("tcp", "not-an-address", nil))
	assert.NoError(t, loopback.Control("tcp6", "[::1]:80", nil))
}
