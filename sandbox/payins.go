package sandbox

// Payin quotation operations (interface.md 4.11-4.12).

func (s *Sandbox) createPayinQuotation(rq *request) reply { panic("unwritten") }
func (s *Sandbox) getPayinQuotation(rq *request) reply    { panic("unwritten") }
