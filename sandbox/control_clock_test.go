package sandbox_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestControlClock(t *testing.T) {
	e := newCtlEnv(t)
	m := e.ok(200, "GET", "/_sandbox/clock", "")
	assert.Equal(t, epoch.Format(time.RFC3339Nano), m["now"])
	assert.EqualValues(t, epoch.Unix(), m["unix"])

	m = e.ok(200, "PUT", "/_sandbox/clock", `{"time":"2030-01-02T03:04:05.5+01:00"}`)
	want := time.Date(2030, 1, 2, 2, 4, 5, 5e8, time.UTC)
	assert.True(t, e.sb.Now().Equal(want), "sandbox clock %v", e.sb.Now())
	assert.Equal(t, "2030-01-02T03:04:05.5+01:00", m["now"])

	e.ok(200, "POST", "/_sandbox/clock/advance", `{"seconds":3600.25}`)
	assert.True(t, e.sb.Now().Equal(want.Add(time.Hour+250*time.Millisecond)))
	e.ok(200, "POST", "/_sandbox/clock/advance", `{"seconds":-60}`)
	assert.True(t, e.sb.Now().Equal(want.Add(time.Hour+250*time.Millisecond-time.Minute)), "backwards")

	// The clock moved: a client signing on the real clock is now outside
	// the window, one on the sandbox's is not.
	_, err := e.client.KYC.GetConfiguration(context.Background(), e.cust.ID)
	require.NoError(t, err)
}
