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
		require.Equal(t, k, c.Key)
		return c
	}

	a := begin("a")
	assert.Equal(t, Claimed, a.State)
	assert.NotEmpty(t, a.Token)
	assert.True(t, a.Expires.IsZero(), "no lease: the claim runs until it is ended")
	assert.Equal(t, InProgress, begin("a").State)
	b := begin("b")
	assert.Equal(t, Claimed, b.State)
	require.NoError(t, d.Release(ctx, a)) // failed: released
	assert.ErrorIs(t, d.Release(ctx, a), ErrClaimLost, "a claim ends once")
	a2 := begin("a")
	assert.Equal(t, Claimed, a2.State)
	assert.NotEqual(t, a.Token, a2.Token, "a new claim, a new token")
	assert.ErrorIs(t, d.Complete(ctx, a), ErrClaimLost, "the released claim cannot complete the new one")
	require.NoError(t, d.Complete(ctx, a2))
	assert.ErrorIs(t, d.Complete(ctx, a2), ErrClaimLost)
	assert.Equal(t, AlreadyDone, begin("a").State)

	// A running claim never expires; a done one does after TTL.
	now = now.Add(time.Hour - time.Second)
	assert.Equal(t, AlreadyDone, begin("a").State)
	assert.Equal(t, InProgress, begin("b").State)
	now = now.Add(time.Second)
	assert.Equal(t, Claimed, begin("a").State)
	now = now.Add(100 * time.Hour)
	assert.Equal(t, InProgress, begin("b").State)
	require.NoError(t, d.Complete(ctx, b))
}

func TestMemoryDeduperLeaseTakeover(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d := &MemoryDeduper{Lease: time.Minute, now: func() time.Time { return now }}
	ctx := context.Background()
	old, _ := d.Begin(ctx, "k")
	require.Equal(t, Claimed, old.State)
	assert.Equal(t, now.Add(time.Minute), old.Expires)

	now = now.Add(59 * time.Second)
	c, _ := d.Begin(ctx, "k")
	assert.Equal(t, InProgress, c.State, "within the lease")
	now = now.Add(time.Second)
	fresh, _ := d.Begin(ctx, "k")
	require.Equal(t, Claimed, fresh.State, "the lease ran out: taken over")
	assert.NotEqual(t, old.Token, fresh.Token)

	// The expired holder wakes up: it can neither release nor complete the
	// new claim, and the new claim is untouched.
	assert.ErrorIs(t, d.Release(ctx, old), ErrClaimLost)
	assert.ErrorIs(t, d.Complete(ctx, old), ErrClaimLost)
	c, _ = d.Begin(ctx, "k")
	assert.Equal(t, InProgress, c.State)
	require.NoError(t, d.Complete(ctx, fresh))
	c, _ = d.Begin(ctx, "k")
	assert.Equal(t, AlreadyDone, c.State)

	// A claim past its lease that nobody took over may still complete.
	late, _ := d.Begin(ctx, "late")
	now = now.Add(time.Hour)
	require.NoError(t, d.Complete(ctx, late))
}

func TestMemoryDeduperForgetsExpiredKeys(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d := &MemoryDeduper{TTL: 10 * time.Minute, now: func() time.Time { return now }}
	ctx := context.Background()
	for i := range 1000 {
		c, _ := d.Begin(ctx, strconv.Itoa(i))
		require.Equal(t, Claimed, c.State)
		require.NoError(t, d.Complete(ctx, c))
	}
	running, _ := d.Begin(ctx, "running")
	require.Equal(t, Claimed, running.State)
	assert.Equal(t, 1001, d.Len())
	now = now.Add(11 * time.Minute)
	c, _ := d.Begin(ctx, "new")
	require.Equal(t, Claimed, c.State)
	assert.Equal(t, 2, d.Len(), "expired keys are kept") // "running" and "new"
	assert.Less(t, len(d.doneQ), 100, "the queue of handled keys is reclaimed")
}

func TestMemoryDeduperMaxDoneForgetsOldestHandledNeverRunning(t *testing.T) {
	d := &MemoryDeduper{MaxDone: 100}
	ctx := context.Background()
	var running []Claim
	for i := range 50 {
		c, _ := d.Begin(ctx, "run"+strconv.Itoa(i))
		running = append(running, c)
	}
	for i := range 1000 {
		c, _ := d.Begin(ctx, strconv.Itoa(i))
		require.Equal(t, Claimed, c.State)
		require.NoError(t, d.Complete(ctx, c))
	}
	assert.Equal(t, 150, d.Len(), "100 handled keys and every running claim")
	for i, r := range running {
		c, _ := d.Begin(ctx, r.Key)
		assert.Equal(t, InProgress, c.State, i)
	}
	c, _ := d.Begin(ctx, "999")
	assert.Equal(t, AlreadyDone, c.State, "the newest handled keys are kept")
	c, _ = d.Begin(ctx, "900")
	assert.Equal(t, AlreadyDone, c.State)
	c, _ = d.Begin(ctx, "899")
	assert.Equal(t, Claimed, c.State, "the oldest handled keys are forgotten")
	assert.LessOrEqual(t, len(d.doneQ)-d.doneHead, 101)
}

func TestMemoryDeduperZeroValue(t *testing.T) {
	var d MemoryDeduper
	ctx := context.Background()
	assert.ErrorIs(t, d.Complete(ctx, Claim{Key: "x", State: Claimed, Token: "m1"}), ErrClaimLost, "Complete before any Begin")
	assert.ErrorIs(t, d.Release(ctx, Claim{Key: "x"}), ErrClaimLost)
	c, err := d.Begin(ctx, "x")
	require.NoError(t, err)
	assert.Equal(t, Claimed, c.State)
	assert.ErrorIs(t, d.Complete(ctx, Claim{Key: "x", State: Claimed}), ErrClaimLost, "no token, no completion")
	require.NoError(t, d.Complete(ctx, c))
	assert.Equal(t, DefaultDedupeTTL, d.ttl())
	assert.Equal(t, DefaultMemoryDeduperMaxDone, d.maxDone())
}
