package sandbox

// Customer operations (interface.md 4.6-4.10).

func (s *Sandbox) addWalletOp(rq *request) reply         { panic("unwritten") }
func (s *Sandbox) simulateKYCStatus(rq *request) reply   { panic("unwritten") }
func (s *Sandbox) getKYCConfiguration(rq *request) reply { panic("unwritten") }
func (s *Sandbox) listBankAccounts(rq *request) reply    { panic("unwritten") }
func (s *Sandbox) getBankAccount(rq *request) reply      { panic("unwritten") }
