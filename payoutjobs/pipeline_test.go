package payoutjobs

import (
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"
)

// TestNewSetsAShortFetchCooldown holds the fetch cooldown New gives River:
// River's own (100 ms) lets a replica start at most Config.Workers jobs
// per 100 ms. Config.River sees it and may set another.
func TestNewSetsAShortFetchCooldown(t *testing.T) {
	var seen time.Duration
	_, err := New(&pgxpool.Pool{}, Config{Client: newTestClient(t), Workers: 4, River: func(c *river.Config) {
		seen = c.FetchCooldown
	}})
	require.NoError(t, err)
	require.Equal(t, 5*time.Millisecond, seen)
	require.Less(t, seen, river.FetchCooldownDefault)

	_, err = New(&pgxpool.Pool{}, Config{Client: newTestClient(t), Workers: 4, River: func(c *river.Config) {
		c.FetchCooldown = 50 * time.Millisecond
	}})
	require.NoError(t, err)
}
