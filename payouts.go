package fiatramp

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

// PayoutsAPI is the method set of PayoutsService, for substituting a fake.
// Methods may be added in minor versions: a fake that embeds PayoutsAPI in
// a struct and overrides only the methods a test uses keeps compiling.
type PayoutsAPI interface {
	GetBalance(ctx context.Context, opts ...RequestOption) (*types.Balance, error)
	GetConfiguration(ctx context.Context, opts ...RequestOption) (*types.Configuration, error)
	GetRate(ctx context.Context, req types.RateRequest, opts ...RequestOption) (*types.Rate, error)
	List(ctx context.Context, filter types.PayoutListFilter, opts ...RequestOption) (*types.PayoutPage, error)
	All(ctx context.Context, filter types.PayoutListFilter, opts ...RequestOption) iter.Seq2[types.Payout, error]
	ListPage(ctx context.Context, next string, opts ...RequestOption) (*types.PayoutPage, error)
	Create(ctx context.Context, req types.CreatePayoutRequest, opts ...RequestOption) (*types.Payout, error)
	SimulateStatus(ctx context.Context, payoutID uuid.UUID, status types.PayoutStatus, opts ...RequestOption) (*types.PayoutStatusSimulation, error)
	CreateQuotation(ctx context.Context, req types.CreatePayoutQuotationRequest, opts ...RequestOption) (*types.PayoutQuotation, error)
	GetQuotation(ctx context.Context, quotationID uuid.UUID, opts ...RequestOption) (*types.PayoutQuotation, error)
	Reconcile(ctx context.Context, a PayoutAttempt, opts ...RequestOption) (*PayoutReconciliation, error)
	ReconcileOutcome(ctx context.Context, err error, opts ...RequestOption) (*PayoutReconciliation, error)
	LinkTransfer(ctx context.Context, req types.LinkTransferRequest, opts ...RequestOption) (*types.TransferLink, error)
	Get(ctx context.Context, payoutID uuid.UUID, opts ...RequestOption) (*types.Payout, error)
	Wait(ctx context.Context, payoutID uuid.UUID, opts ...WaitOption) (*types.Payout, error)
	CreatePrefunded(ctx context.Context, req types.CreatePrefundedPayoutRequest, opts ...RequestOption) (*types.PrefundedPayout, error)
	CreateRemittance(ctx context.Context, req types.CreateRemittancePayoutRequest, opts ...RequestOption) (*types.RemittancePayout, error)
	SaveEDD(ctx context.Context, req types.SavePayoutEDDRequest, opts ...RequestOption) (*types.EDD, error)
	GetLimits(ctx context.Context, customerID uuid.UUID, opts ...RequestOption) (*types.Limits, error)
}

var _ PayoutsAPI = (*PayoutsService)(nil)

// PayoutsService pays fiat to a customer's bank account against a quotation
// that locks the exchange rate. A payout is created PROCESSING and is paid
// to the bank account attached to its quotation. Each method's doc names
// the HTTP call it makes; Operations lists them all.
type PayoutsService struct{ client *Client }

var createPayoutBody = compileBody[types.CreatePayoutRequest]()

// Create initiates a standard payout against a valid, unexpired quotation:
// POST /pos/api/v1/payout/initiate with {"client_reference_id",
// "customer_id", "exchange_order_id", "quotation_id", "transaction_hash"}
// (client_reference_id, exchange_order_id and transaction_hash only when
// set: the exchange model sends an exchange order id, the on-chain model
// the hash of the crypto deposit). The payout is paid to the bank
// account attached to the quotation and starts PROCESSING.
//
// A nil QuotationID or CustomerID is refused before sending
// (ErrInvalidRequest). Without a ClientReferenceID one is generated (see
// WithClientReferenceGenerator), sent, and set on the result if the
// response leaves it out. With a reference, a repeat cannot pay twice, so
// the call is retried like any other; without one, it is repeated only when
// no earlier attempt can have reached the service. When an attempt may
// have acted and no later attempt settled it, the error is an
// *OutcomeUnknownError (ErrOutcomeUnknown): reconcile, never treat it as a
// failure. A success whose payout has no id or no status is such an
// outcome (its Err matches ErrMalformedResponse), never a payout with
// uuid.Nil for its ID. With WithReconcile the call settles such an
// outcome itself, with reads only, before it returns (see
// Payouts.Reconcile): the payout the lost attempt created, a
// *NotCreatedError (ErrNotCreated: nothing holds the reference; create
// again with the same one), or the *OutcomeUnknownError with Unsettled
// saying why.
//
// The service's refusals match ErrClientReferenceExists (reference reused),
// ErrQuotationNotFound (absent or another organization's quotation),
// ErrCustomerMismatch (customer_id is not the quotation's customer),
// ErrQuotationExpired, ErrQuotationAlreadyLinked (quotation already used)
// and ErrExchangeOrderInUse (exchange_order_id held by a PROCESSING or
// SUCCESS payout); a missing field matches ErrFieldMissing.
func (s *PayoutsService) Create(ctx context.Context, req types.CreatePayoutRequest, opts ...RequestOption) (*types.Payout, error) {
	if err := requireID("quotation_id", req.QuotationID); err != nil {
		return nil, err
	}
	if err := requireID("customer_id", req.CustomerID); err != nil {
		return nil, err
	}
	ref, err := s.client.reference(&req.ClientReferenceID)
	if err != nil {
		return nil, err
	}
	op := payoutCreate(opPayoutsCreate.op(), createPayoutBody(req), ref, req.QuotationID, req.CustomerID)
	p, err := call[types.Payout](ctx, s.client, op, opts)
	if err != nil {
		return nil, err
	}
	fillReference(&p.ClientReferenceID, ref)
	return p, nil
}

var createPrefundedPayoutBody = compileBody[types.CreatePrefundedPayoutRequest]()

// CreatePrefunded creates a payout funded from the organization's prefunded
// balance, which reserves the amount: POST /pos/api/v1/prefunded/payout/initiate
// with {"client_reference_id", "customer": {"receiver": {"id"}, "sender":
// {"id"}}, "quotation_id"}; no transaction_hash is sent. The receiver must be
// the quotation's customer (it owns the quotation and the bank account);
// the sender is the paying customer, stored for reference. The service
// answers 201 with the payout, PROCESSING.
//
// A nil QuotationID, sender or receiver id is refused before sending
// (ErrInvalidRequest). The client_reference_id is handled as by Create
// (generated when empty; retries, *OutcomeUnknownError and WithReconcile
// alike).
// Organizations without a prefunded wallet are refused with ErrNotEntitled
// ("This endpoint is not available for your organization."); other
// refusals match ErrInsufficientBalance, ErrQuotationExpired,
// ErrClientReferenceExists and ErrFieldMissing.
func (s *PayoutsService) CreatePrefunded(ctx context.Context, req types.CreatePrefundedPayoutRequest, opts ...RequestOption) (*types.PrefundedPayout, error) {
	if err := requireID("quotation_id", req.QuotationID); err != nil {
		return nil, err
	}
	if err := requireID("customer.sender.id", req.Customer.Sender.ID); err != nil {
		return nil, err
	}
	if err := requireID("customer.receiver.id", req.Customer.Receiver.ID); err != nil {
		return nil, err
	}
	ref, err := s.client.reference(&req.ClientReferenceID)
	if err != nil {
		return nil, err
	}
	// The receiver is the quotation's customer: the payout's, whose
	// history a reconciliation reads.
	op := payoutCreate(opPayoutsCreatePrefunded.op(), createPrefundedPayoutBody(req), ref, req.QuotationID, req.Customer.Receiver.ID)
	p, err := call[types.PrefundedPayout](ctx, s.client, op, opts)
	if err != nil {
		return nil, err
	}
	fillReference(&p.ClientReferenceID, ref)
	fillParties(&p.Customer, req.Customer)
	return p, nil
}

var createRemittancePayoutBody = compileBody[types.CreateRemittancePayoutRequest]()

// CreateRemittance creates a remittance payout: POST
// /pos/api/v1/remittance-payout/initiate (DefaultRemittancePayoutPath),
// or the path WithRemittancePayoutPath gives, with
// {"client_reference_id", "customer_id", "quotation_id",
// "remitter_id", "transaction_hash"}. TransactionHash (the on-chain hash of
// the crypto deposit) is required outside the prefunding flow, where the
// payout debits the prefunded balance instead; the service decides, so it
// is sent only when set, as is client_reference_id. RemitterID is stored
// on the payout and echoed in the response.
//
// A nil QuotationID, CustomerID or RemitterID is refused before sending
// (ErrInvalidRequest). The client_reference_id is handled as by Create
// (generated when empty; retries, *OutcomeUnknownError and WithReconcile
// alike).
func (s *PayoutsService) CreateRemittance(ctx context.Context, req types.CreateRemittancePayoutRequest, opts ...RequestOption) (*types.RemittancePayout, error) {
	if err := requireID("quotation_id", req.QuotationID); err != nil {
		return nil, err
	}
	if err := requireID("customer_id", req.CustomerID); err != nil {
		return nil, err
	}
	if err := requireID("remitter_id", req.RemitterID); err != nil {
		return nil, err
	}
	ref, err := s.client.reference(&req.ClientReferenceID)
	if err != nil {
		return nil, err
	}
	op := payoutCreate(s.client.remittanceOp(), createRemittancePayoutBody(req), ref, req.QuotationID, req.CustomerID)
	p, err := call[types.RemittancePayout](ctx, s.client, op, opts)
	if err != nil {
		return nil, err
	}
	fillReference(&p.ClientReferenceID, ref)
	if p.RemitterID == uuid.Nil {
		p.RemitterID = req.RemitterID
	}
	return p, nil
}

// reference gives a payout create its client_reference_id: the caller's
// (*ref), else a generated one written into *ref, else "" when generation
// is off.
func (c *Client) reference(ref *string) (string, error) {
	if *ref != "" || c.cfg.newReference == nil {
		return *ref, nil
	}
	gen, err := c.cfg.newReference()
	if err != nil {
		return "", fmt.Errorf("fiatramp: generating client_reference_id: %w", err)
	}
	if strings.TrimSpace(gen) == "" {
		return "", errors.New("fiatramp: generating client_reference_id: the generator returned an empty reference")
	}
	*ref = gen
	return gen, nil
}

// payoutCreate completes op, a payout create of the index (create-once),
// with its payload and what its reconciliation needs (the reference, the
// quotation, the payout's customer): guarded by its reference when it has
// one, else never repeated once an attempt may have reached the service.
func payoutCreate(op operation, payload []byte, ref string, quotationID, customerID uuid.UUID) operation {
	op.payload, op.reference, op.quotationID, op.customerID = payload, ref, quotationID, customerID
	op.settle = settlePayout
	op.safety = oneShot
	if ref != "" {
		op.safety = guarded
	}
	return op
}

// remittanceOp is the call of Payouts.CreateRemittance, to the Client's
// remittance payout path (WithRemittancePayoutPath).
func (c *Client) remittanceOp() operation {
	op := opPayoutsCreateRemittance.op()
	op.path = c.cfg.remittancePath
	return op
}

// fillReference sets a result's client_reference_id to the one sent when
// the response left it out.
func fillReference(dst **string, ref string) {
	if *dst == nil && ref != "" {
		*dst = &ref
	}
}

// fillParties sets a prefunded payout's sender and receiver to the ones
// sent when the answer names neither (as the history's record of it, which
// a reconciliation reads, does not).
func fillParties(dst *types.PrefundedPayoutParties, sent types.PrefundedCustomer) {
	if dst.Sender.ID == nil && dst.Receiver.ID == nil {
		sender, receiver := sent.Sender.ID, sent.Receiver.ID
		dst.Sender.ID, dst.Receiver.ID = &sender, &receiver
	}
}

// Get fetches a payout: GET /pos/api/v1/payout/{payout_id}, no body. The
// fetched payout also carries UpdatedAt, FailureReason (set when FAILED)
// and UTR (set once the bank has paid). A nil payoutID is refused before
// sending (ErrInvalidRequest); the service refuses a missing or invalid id
// with ErrPayoutIDInvalid.
func (s *PayoutsService) Get(ctx context.Context, payoutID uuid.UUID, opts ...RequestOption) (*types.Payout, error) {
	if err := requireID("payout_id", payoutID); err != nil {
		return nil, err
	}
	return call[types.Payout](ctx, s.client, opPayoutsGet.op(payoutID.String()), opts)
}

// payoutStatusRequest is the body of the sandbox payout status simulation.
type payoutStatusRequest struct {
	PayoutID     uuid.UUID          `json:"payout_id"`
	PayoutStatus types.PayoutStatus `json:"payout_status"`
}

var payoutStatusBody = compileBody[payoutStatusRequest]()

// SimulateStatus moves a PROCESSING payout to status, in the sandbox only:
// PATCH /pos/api/v1/payout/mock-payout-status with {"payout_id",
// "payout_status"}. Payouts in any other state are not affected. A nil
// payoutID or an empty status is refused before sending
// (ErrInvalidRequest); a status not among the PayoutStatus constants is
// sent as given (the enum is open: the service decides).
func (s *PayoutsService) SimulateStatus(ctx context.Context, payoutID uuid.UUID, status types.PayoutStatus, opts ...RequestOption) (*types.PayoutStatusSimulation, error) {
	if err := requireID("payout_id", payoutID); err != nil {
		return nil, err
	}
	if strings.TrimSpace(string(status)) == "" {
		return nil, invalid("payout_status", "must not be empty")
	}
	body := payoutStatusBody(payoutStatusRequest{PayoutID: payoutID, PayoutStatus: status})
	return call[types.PayoutStatusSimulation](ctx, s.client, opPayoutsSimulateStatus.op().with(body), opts)
}

// GetBalance fetches the organization's prefunded balance, the amount
// available per asset: GET /pos/api/v1/payout/balance. Amounts are
// decimals, exactly as sent. Organizations without a prefunded wallet are
// refused with ErrNotEntitled. An answer without available_balance (absent
// or null) is refused with an error matching ErrMalformedResponse: an
// unknown balance is not zero, which a nil map would read as.
func (s *PayoutsService) GetBalance(ctx context.Context, opts ...RequestOption) (*types.Balance, error) {
	return call[types.Balance](ctx, s.client, opPayoutsGetBalance.op(), opts)
}
