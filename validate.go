package fiatramp

import (
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/google/uuid"
)

// requireID refuses the nil uuid, which no record of the service has.
func requireID(field string, id uuid.UUID) error {
	if id == uuid.Nil {
		return invalid(field, "is required (got the nil uuid)")
	}
	return nil
}

// requireText refuses an empty or blank string.
func requireText(field, s string) error {
	if strings.TrimSpace(s) == "" {
		return invalid(field, "is required")
	}
	return nil
}

func quote(s string) string { return strconv.Quote(s) }

// checkWebURL refuses what is not a web URL at all: empty or blank, white
// space or a control character inside, a scheme other than http or https,
// no host. A URL written without its scheme ("hooks.example.com/fiatramp",
// as some of the service's own examples write one) is not refused when it
// reads as a host and a path: a name with a dot in it (or localhost, or
// an IP address), then a slash. It is sent as given, and the service
// decides. A bare name ("selfie.jpg") is refused: a file name reads so
// too. It returns the URL as parsed, with https assumed when no scheme
// was written.
func checkWebURL(field, raw string) (*url.URL, error) {
	if strings.TrimSpace(raw) == "" {
		return nil, invalid(field, "is required")
	}
	if strings.IndexFunc(raw, func(r rune) bool { return r <= ' ' || r == 0x7f }) >= 0 {
		return nil, invalid(field, "contains white space or a control character")
	}
	bad := invalid(field, "must be an absolute http or https URL, got "+quote(raw))
	if !strings.Contains(raw, "://") {
		u, err := url.Parse("https://" + raw)
		if err != nil || !hostLike(u.Hostname()) || !strings.HasPrefix(u.EscapedPath(), "/") {
			return nil, bad
		}
		return u, nil
	}
	u, err := url.Parse(raw)
	if err != nil || (!strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https")) || u.Hostname() == "" {
		return nil, bad
	}
	return u, nil
}

// hostLike reports whether host, written without a scheme before it,
// reads as a host: a name with a dot in it, localhost, or an IP address.
func hostLike(host string) bool {
	return strings.Contains(strings.Trim(host, "."), ".") || strings.EqualFold(host, "localhost") || net.ParseIP(host) != nil
}
