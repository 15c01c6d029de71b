package sandbox

// The payout EDD save: POST /ren/api/v1/payout/edd/save (the EDD rules
// are edd.go).

// savePayoutEDD is POST /ren/api/v1/payout/edd/save.
func (s *Sandbox) savePayoutEDD(rq *request) reply { return s.saveEDD(rq, limitPayout) }
