package sandbox

// Payout operations (interface.md 4.1-4.5, public-notes' remittance and balance).

func (s *Sandbox) createPrefundedPayout(rq *request) reply  { panic("unwritten") }
func (s *Sandbox) createPayout(rq *request) reply           { panic("unwritten") }
func (s *Sandbox) createRemittancePayout(rq *request) reply { panic("unwritten") }
func (s *Sandbox) getBalance(rq *request) reply             { panic("unwritten") }
func (s *Sandbox) simulatePayoutStatus(rq *request) reply   { panic("unwritten") }
func (s *Sandbox) getPayout(rq *request) reply              { panic("unwritten") }
