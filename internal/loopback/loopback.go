// Package loopback tells whether a URL's host is this machine, and keeps
// connections to this machine: the rule by which the sandbox delivers
// webhooks only to local receivers unless told otherwise.
package loopback

import (
	"fmt"
	"net"
	"net/url"
	"strings"
	"syscall"
)

// IsLocalHost reports whether host (a URL's host name, without port or
// brackets) names this machine: "localhost", a name under ".localhost"
// (which names this machine by definition), or a loopback address
// (127.0.0.0/8, ::1, or 127.0.0.0/8 mapped into IPv6). No name is looked
// up: asking DNS about any other name would itself leave the machine.
func IsLocalHost(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Elsewhere returns why a delivery to rawURL would leave this machine, or
// "" when its host is this machine (IsLocalHost).
func Elsewhere(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "the URL does not parse: " + err.Error()
	}
	if !IsLocalHost(u.Hostname()) {
		return fmt.Sprintf("host %q is not this machine (localhost or a loopback address)", u.Hostname())
	}
	return ""
}

// Control is a net.Dialer Control that refuses a connection to any
// address but a loopback one: a name that passed IsLocalHost but resolves
// elsewhere still never receives anything.
func Control(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("%s is not a loopback address", address)
	}
	return nil
}
