package sandbox

// Control plane: the clock group (GET and PUT /_sandbox/clock, POST
// /_sandbox/clock/advance).

import (
	"net/http"
	"time"
)

// clockJSON is the answer of the clock operations: the sandbox time, also
// in Unix seconds (what X-TIMESTAMP carries).
type clockJSON struct {
	Now  time.Time `json:"now"`
	Unix int64     `json:"unix"`
}

func clockOf(t time.Time) clockJSON { return clockJSON{t, t.Unix()} }

func (c *control) now(*http.Request, []string, []byte) (int, any, error) {
	return http.StatusOK, clockOf(c.sb.Now()), nil
}

func (c *control) setTime(_ *http.Request, _ []string, body []byte) (int, any, error) {
	var in struct {
		Time string `json:"time"`
	}
	present, err := decodeStrict(body, &in)
	if err != nil {
		return 0, nil, err
	}
	if err := require(present, "time"); err != nil {
		return 0, nil, err
	}
	t, err := time.Parse(time.RFC3339Nano, in.Time)
	if err != nil {
		return 0, nil, badField("time", "time %q: want RFC 3339, e.g. 2026-01-02T15:04:05Z", in.Time)
	}
	c.sb.SetTime(t)
	return http.StatusOK, clockOf(c.sb.Now()), nil
}

func (c *control) advance(_ *http.Request, _ []string, body []byte) (int, any, error) {
	var in struct {
		Seconds float64 `json:"seconds"`
	}
	present, err := decodeStrict(body, &in)
	if err != nil {
		return 0, nil, err
	}
	if err := require(present, "seconds"); err != nil {
		return 0, nil, err
	}
	d, err := seconds("seconds", in.Seconds, true)
	if err != nil {
		return 0, nil, err
	}
	c.sb.Advance(d)
	return http.StatusOK, clockOf(c.sb.Now()), nil
}
