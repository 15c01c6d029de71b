package sandbox

import (
	"testing"

	"github.com/google/uuid"
	testrequire "github.com/stretchr/testify/require"
)

// TestPayoutsOneStore: Payouts lists an organization's payouts in creation
// order, and removing the organization (a failed Load's undo) removes them
// from every view: Payout, Payouts and the store.
func TestPayoutsOneStore(t *testing.T) {
	s := New()
	gone, kept := Organization{ID: uuid.New(), APIKey: "gone"}, Organization{ID: uuid.New(), APIKey: "kept"}
	var ids []uuid.UUID
	for _, org := range []uuid.UUID{kept.ID, gone.ID, kept.ID, gone.ID, kept.ID} {
		p := &payout{Payout: Payout{ID: uuid.New(), OrganizationID: org}}
		s.storePayout(p)
		ids = append(ids, p.ID)
	}
	idsOf := func(ps []Payout) []uuid.UUID {
		var out []uuid.UUID
		for _, p := range ps {
			out = append(out, p.ID)
		}
		return out
	}
	testrequire.Equal(t, []uuid.UUID{ids[0], ids[2], ids[4]}, idsOf(s.Payouts(kept.ID)))
	testrequire.Equal(t, []uuid.UUID{ids[1], ids[3]}, idsOf(s.Payouts(gone.ID)))

	s.removeOrganizations([]Organization{gone})
	testrequire.Empty(t, s.Payouts(gone.ID))
	_, found := s.Payout(ids[1])
	testrequire.False(t, found)
	testrequire.Len(t, s.payouts, 3)
	testrequire.Equal(t, []uuid.UUID{ids[0], ids[2], ids[4]}, idsOf(s.Payouts(kept.ID)))
}
