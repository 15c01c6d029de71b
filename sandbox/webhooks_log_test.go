package sandbox_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fiatramp/fiatramp-go/sandbox"
	"github.com/fiatramp/fiatramp-go/types"
)

// zeroCounts is DeliveryCounts with every state and fault kind at zero,
// changed by the pairs given.
func zeroCounts(states map[sandbox.DeliveryState]int, faults map[sandbox.DeliveryFaultKind]int) (map[sandbox.DeliveryState]int, map[sandbox.DeliveryFaultKind]int) {
	s := map[sandbox.DeliveryState]int{}
	for _, st := range []sandbox.DeliveryState{sandbox.DeliveryPending, sandbox.DeliveryDelivered, sandbox.DeliveryFailed,
		sandbox.DeliveryDropped, sandbox.DeliveryNoURL, sandbox.DeliveryAbandoned, sandbox.DeliveryNotSent} {
		s[st] = states[st]
	}
	f := map[sandbox.DeliveryFaultKind]int{}
	for _, k := range sandbox.DeliveryFaultKind("").Values() {
		f[k] = faults[k]
	}
	return s, f
}

// The delivery log keeps the newest Settings.DeliveryLogSize deliveries,
// dropping the oldest first, while DeliveryCounts counts every delivery
// exactly, by state and fault, those dropped from the log included.
func TestDeliveryLogBounded(t *testing.T) {
	assert.Equal(t, sandbox.DefaultDeliveryLogSize, sandbox.DefaultSettings().DeliveryLogSize)
	assert.Equal(t, 10000, sandbox.New(func(st *sandbox.Settings) { st.DeliveryLogSize = 0 }).Settings().DeliveryLogSize, "zero takes the default")

	const size = 5
	e, rc := hookEnv(t, func(_ int, h hook, _ *http.Request) int {
		if strings.Contains(h.body, `"event":"FAILED"`) {
			return http.StatusInternalServerError
		}
		return http.StatusOK
	}, func(st *sandbox.Settings) {
		st.DeliveryLogSize = size
		st.WebhookMaxAttempts = 1 // a refused event fails at once
	})
	require.NoError(t, e.sb.InjectDeliveryFault(sandbox.DeliveryFault{Kind: sandbox.DeliveryFaultDrop, Type: sandbox.EventTypeBank, Event: "VERIFIED", Count: 2}))
	// 12 events: every third FAILED (refused: failed), the rest VERIFIED,
	// of which the first two are dropped and six delivered.
	var ids []uuid.UUID
	for i := range 12 {
		status := types.BankAccountVerified
		if i%3 == 0 {
			status = types.BankAccountFailed
		}
		ids = append(ids, e.bankEvent(status))
	}
	settle(t, e.sb)

	log := e.sb.Deliveries()
	require.Len(t, log, size, "bounded")
	for i, d := range log {
		assert.Equal(t, 8+i, d.Seq, "the newest kept, in order")
		assert.Equal(t, ids[7+i].String(), d.ID)
	}
	states, faults := zeroCounts(
		map[sandbox.DeliveryState]int{sandbox.DeliveryDelivered: 6, sandbox.DeliveryFailed: 4, sandbox.DeliveryDropped: 2},
		map[sandbox.DeliveryFaultKind]int{sandbox.DeliveryFaultDrop: 2})
	assert.Equal(t, sandbox.DeliveryCounts{
		Total: 12, Logged: size, Evicted: 7, States: states, Faults: faults, Attempts: 10,
	}, e.sb.DeliveryCounts(), "exact after dropping the oldest seven")
	assert.Len(t, rc.hooks(), 10, "every attempt counted")

	e.bankEvent(types.BankAccountVerified)
	settle(t, e.sb)
	log = e.sb.Deliveries()
	require.Len(t, log, size)
	assert.Equal(t, 9, log[0].Seq, "the oldest went")
	assert.Equal(t, 13, log[size-1].Seq)
	c := e.sb.DeliveryCounts()
	assert.Equal(t, []int{13, size, 8, 7, 11}, []int{c.Total, c.Logged, c.Evicted, c.States[sandbox.DeliveryDelivered], c.Attempts})

	// The counts handed out are copies; Reset zeroes them.
	c.States[sandbox.DeliveryDelivered] = 99
	assert.Equal(t, 7, e.sb.DeliveryCounts().States[sandbox.DeliveryDelivered])
	e.sb.Reset()
	states, faults = zeroCounts(nil, nil)
	assert.Equal(t, sandbox.DeliveryCounts{States: states, Faults: faults}, e.sb.DeliveryCounts())
	assert.Empty(t, e.sb.Deliveries())
}

// A pending delivery dropped from the log is still retried and delivered,
// and its outcome still counted.
func TestDeliveryLogEvictsPendingStillDelivered(t *testing.T) {
	e, rc := hookEnv(t, func(n int, _ hook, _ *http.Request) int {
		if n == 1 {
			return http.StatusServiceUnavailable
		}
		return http.StatusOK
	}, func(st *sandbox.Settings) {
		st.DeliveryLogSize = 1
		st.WebhookInitialBackoff, st.WebhookMaxBackoff = 10*time.Second, time.Minute
	})
	first := e.bankEvent(types.BankAccountVerified)
	require.NoError(t, e.sb.DeliverDue(ctx(t)))
	second := e.bankEvent(types.BankAccountVerified)
	require.NoError(t, e.sb.DeliverDue(ctx(t)))
	log := e.sb.Deliveries()
	require.Len(t, log, 1)
	assert.Equal(t, second.String(), log[0].ID)
	c := e.sb.DeliveryCounts()
	assert.Equal(t, []int{2, 1, 1, 1, 2}, []int{c.Total, c.Evicted, c.States[sandbox.DeliveryPending], c.States[sandbox.DeliveryDelivered], c.Attempts})

	e.sb.Advance(10 * time.Second)
	require.NoError(t, e.sb.DeliverDue(ctx(t)))
	got := rc.hooks()
	require.Len(t, got, 3)
	assert.Contains(t, got[2].body, first.String(), "the evicted delivery was retried")
	c = e.sb.DeliveryCounts()
	assert.Equal(t, []int{0, 2, 3}, []int{c.States[sandbox.DeliveryPending], c.States[sandbox.DeliveryDelivered], c.Attempts})
	assert.Equal(t, second.String(), e.sb.Deliveries()[0].ID, "the log is unchanged")
}
