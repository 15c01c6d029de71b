package webhook

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMemoryDeduperLifecycle(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d := &MemoryDeduper{TTL: time.Hour, now: func() time.Time { return now }}
	ctx := context.Background()
	begin := func(k string) Claim {
		c, err := d.Begin(ctx, k)
		require.NoError(t, err)
		return c
	}

	assert.Equal(t, Claimed, begin("a"))
	assert.Equal(t, InProgress, begin("a"))
	assert.Equal(t, Claimed, begin("b"))
	require.NoError(t, d.Finish(ctx, "a", false)) // failed: released
	assert.Equal(t, Claimed, begin("a"))
	require.NoError(t, d.Finish(ctx, "a", true))
	assert.Equal(t, AlreadyDone, begin("a"))

	// A running claim never expires; a done one does after TTL.
	now = now.Add(time.Hour - time.Second)
	assert.Equal(t, AlreadyDone, begin("a"))
	assert.Equal(t, InProgress, begin("b"))
	now = now.Add(time.Second)
	assert.Equal(t, Claimed, begin("a"))
	now = now.Add(100 * time.Hour)
	assert.Equal(t, InProgress, begin("b"))
}

func TestMemoryDeduperForgetsExpiredKeys(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d := &MemoryDeduper{TTL: 10 * time.Minute, now: func() time.Time { return now }}
	ctx := context.Background()
	for i := range 1000 {
		k := strconv.Itoa(i)
		c, _ := d.Begin(ctx, k)
		require.Equal(t, Claimed, c)
		require.NoError(t, d.Finish(ctx, k, true))
	}
	c, _ := d.Begin(ctx, "running")
	require.Equal(t, Claimed, c)
	assert.Equal(t, 1001, d.Len())
	now = now.Add(11 * time.Minute)
	c, _ = d.Begin(ctx, "new")
	require.Equal(t, Claimed, c)
	assert.Equal(t, 2, d.Len(), "expired keys are kept") // "running" and "new"
}

func TestMemoryDeduperZeroValue(t *testing.T) {
	var d MemoryDeduper
	ctx := context.Background()
	require.NoError(t, d.Finish(ctx, "x", true)) // Finish before any Begin
	c, err := d.Begin(ctx, "x")
	require.NoError(t, err)
	assert.Equal(t, AlreadyDone, c)
	assert.Equal(t, DefaultDedupeTTL, d.ttl())
}
