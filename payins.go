package fiatramp

import (
	"context"
	"fmt"
	"iter"
	"strings"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/fiatramp/fiatramp-go/types"
)

// PayinsAPI is the method set of PayinsService, for substituting a fake.
// Methods may be added in minor versions: embed PayinsAPI in the fake's
// struct so that it keeps compiling.
type PayinsAPI interface {
	GetConfiguration(ctx context.Context, opts ...RequestOption) (*types.Configuration, error)
	GetRate(ctx context.Context, req types.RateRequest, opts ...RequestOption) (*types.Rate, error)
	List(ctx context.Context, q types.PayinListFilter, opts ...RequestOption) (*types.PayinPage, error)
	All(ctx context.Context, q types.PayinListFilter, opts ...RequestOption) iter.Seq2[types.Payin, error]
	ListPage(ctx context.Context, next string, opts ...RequestOption) (*types.PayinPage, error)
	Initiate(ctx context.Context, req types.InitiatePayinRequest, opts ...RequestOption) (*types.Payin, error)
	SimulateStatus(ctx context.Context, payinID uuid.UUID, status types.PayinStatus, opts ...RequestOption) (*types.PayinStatusSimulation, error)
	CreateQuotation(ctx context.Context, req types.CreatePayinQuotationRequest, opts ...RequestOption) (*types.PayinQuotation, error)
	GetQuotation(ctx context.Context, quotationID uuid.UUID, opts ...RequestOption) (*types.PayinQuotation, error)
	Reconcile(ctx context.Context, a PayinAttempt, opts ...RequestOption) (*PayinReconciliation, error)
	ReconcileOutcome(ctx context.Context, err error, opts ...RequestOption) (*PayinReconciliation, error)
	LinkTransfer(ctx context.Context, req types.LinkPayinTransferRequest, opts ...RequestOption) (*types.PayinTransferLink, error)
	Get(ctx context.Context, payinID uuid.UUID, opts ...RequestOption) (*types.Payin, error)
	SaveEDD(ctx context.Context, req types.SavePayinEDDRequest, opts ...RequestOption) (*types.EDD, error)
	GetLimits(ctx context.Context, customerID uuid.UUID, opts ...RequestOption) (*types.Limits, error)
}

var _ PayinsAPI = (*PayinsService)(nil)

// PayinsService takes fiat in from a customer: a quotation locks the rate
// and gives deposit instructions, the customer pays from their own
// account, and the payin is recorded by the transfer's UTR. Each method's
// doc names the HTTP call it makes; Operations lists them all.
type PayinsService struct{ client *Client }

var createPayinQuotationBody = compileBody[types.CreatePayinQuotationRequest]()

// CreateQuotation locks an exchange rate and returns deposit instructions and
// an expiry time: POST /pis/api/v1/payin/quotation with {"asset",
// "bank_id", "customer_id", "fiat", "payment_method", "risk_parameters":
// {"device_id", "ip_address", "law_enforcement_agency_report",
// "suspicious_activity_report"}, "sending_amount"}. Asset and fiat are sent
// in lower case and the amount as a JSON string with every digit kept;
// device_id and ip_address only when set. BankID must name a bank account
// of type bank_account for IMPS and of type vpa for UPI. The quotation is
// expired from its ExpiryTime on.
//
// A blank asset or fiat, an amount that is not positive or that written
// out has more than types.MaxDecimalDigits digits, a nil CustomerID
// or BankID, or an empty payment method is refused before sending
// (ErrInvalidRequest). A method other than IMPS or UPI is sent as given:
// the enum is open, and the service decides. The service's refusals match
// ErrCustomerUnverified (KYC not verified, or not the organization's
// customer), ErrBankUnverified, ErrOnrampDisabled, ErrAmountBelowMinimum
// (the amount must exceed INR 2500), ErrAmountAboveMaximum (INR 500,000 for
// IMPS, INR 100,000 for UPI), ErrAMLScreeningFailed, ErrEDDRequired,
// ErrDailyLimitExhausted, ErrInternal (500) and ErrUnavailable (503).
func (s *PayinsService) CreateQuotation(ctx context.Context, req types.CreatePayinQuotationRequest, opts ...RequestOption) (*types.PayinQuotation, error) {
	if err := requireText("asset", req.Asset); err != nil {
		return nil, err
	}
	if err := requireText("fiat", req.Fiat); err != nil {
		return nil, err
	}
	if !req.SendingAmount.IsPositive() {
		return nil, invalid("sending_amount", "must be greater than zero, got "+req.SendingAmount.String())
	}
	if n := plainDigits(req.SendingAmount); n > types.MaxDecimalDigits {
		return nil, invalid("sending_amount", fmt.Sprintf("written out it has %d digits, more than %d", n, types.MaxDecimalDigits))
	}
	if err := requireID("customer_id", req.CustomerID); err != nil {
		return nil, err
	}
	if err := requireID("bank_id", req.BankID); err != nil {
		return nil, err
	}
	if strings.TrimSpace(string(req.PaymentMethod)) == "" {
		return nil, invalid("payment_method", "must not be empty (IMPS or UPI)")
	}
	return call[types.PayinQuotation](ctx, s.client, opPayinsCreateQuotation.op().with(createPayinQuotationBody(req)), opts)
}

// GetQuotation fetches a payin quotation with its order id and status:
// GET /pis/api/v1/payin/quotation/{quotation_id}, no body. A nil
// quotationID is refused before sending (ErrInvalidRequest); the service
// refuses a missing or invalid id with ErrQuotationIDInvalid.
func (s *PayinsService) GetQuotation(ctx context.Context, quotationID uuid.UUID, opts ...RequestOption) (*types.PayinQuotation, error) {
	if err := requireID("quotation_id", quotationID); err != nil {
		return nil, err
	}
	return call[types.PayinQuotation](ctx, s.client, opPayinsGetQuotation.op(quotationID.String()), opts)
}

// payinStatusRequest is the body of the sandbox payin status simulation.
type payinStatusRequest struct {
	PayinID     uuid.UUID         `json:"payin_id"`
	PayinStatus types.PayinStatus `json:"payin_status"`
}

var payinStatusBody = compileBody[payinStatusRequest]()

// SimulateStatus moves a payin to status, in the sandbox only: PATCH
// /pis/api/v1/payin/mock-payin-status with {"payin_id", "payin_status"}.
// payinID is the payin's own id (Payin.ID, from Initiate), not its
// quotation's. The sandbox allows PROCESSING -> SUCCESS, FAILED or
// ON_HOLD, FAILED -> REFUND_INITIATED -> REFUNDED, and refuses every
// other move. A nil payinID or an empty status is refused before sending
// (ErrInvalidRequest); a status the library does not list is sent as
// given, for the service to judge.
func (s *PayinsService) SimulateStatus(ctx context.Context, payinID uuid.UUID, status types.PayinStatus, opts ...RequestOption) (*types.PayinStatusSimulation, error) {
	if err := requireID("payin_id", payinID); err != nil {
		return nil, err
	}
	if err := requireText("payin_status", string(status)); err != nil {
		return nil, err
	}
	body := payinStatusBody(payinStatusRequest{PayinID: payinID, PayinStatus: status})
	return call[types.PayinStatusSimulation](ctx, s.client, opPayinsSimulateStatus.op().with(body), opts)
}

var initiatePayinBody = compileBody[types.InitiatePayinRequest]()

// Initiate records a payin once the customer has paid the quoted amount
// from their own account: POST /pis/api/v1/payin/initiate with
// {"client_reference_id", "customer_id", "quotation_id", "utr"}. The
// answer (201) is the quotation's fields plus the payin's own id, its UTR
// and its status, PROCESSING; Get, LinkTransfer and SimulateStatus take
// that id.
//
// A nil QuotationID or CustomerID, or a blank UTR, is refused before
// sending (ErrInvalidRequest). The UTR's format is left to the service
// (it documents 12 characters, and refuses others as an invalid format):
// a bank reference the library would wrongly refuse could not be
// recorded at all. Without a ClientReferenceID one is generated (see
// WithClientReferenceGenerator), sent, and set on the result if the
// response leaves it out.
//
// Retries: the service takes a UTR and a client_reference_id once each,
// so a repeat of the same call cannot record the payin twice; the call
// is retried like any other. When an attempt may have acted and no later
// attempt settled it, the error is an *OutcomeUnknownError
// (ErrOutcomeUnknown) naming the reference, the quotation, the customer
// and the attempts' window: a repeat refused because the UTR, the
// reference or the quotation is already taken means an earlier attempt
// all but certainly recorded the payin (ProbablyCreated). Settle it by reading:
// the payin history of the customer over the attempt's dates, matched on
// the UTR or the reference; or repeat the same call, which either records
// the payin or is refused as a duplicate (Payins.Reconcile reads for
// you; WithReconcile makes the call do so before it returns: the payin,
// a *NotCreatedError, or the *OutcomeUnknownError with Unsettled saying
// why). Never initiate again with another UTR or reference.
//
// The service's refusals match ErrUTRInUse ("UTR is already linked to
// another payin"), ErrUTRInvalid ("Invalid UTR format"),
// ErrClientReferenceExists, ErrQuotationNotFound (absent or another
// organization's quotation), ErrCustomerMismatch, ErrQuotationExpired and
// ErrQuotationAlreadyLinked ("Quotation is already linked to another
// payin").
func (s *PayinsService) Initiate(ctx context.Context, req types.InitiatePayinRequest, opts ...RequestOption) (*types.Payin, error) {
	if err := requireID("quotation_id", req.QuotationID); err != nil {
		return nil, err
	}
	if err := requireID("customer_id", req.CustomerID); err != nil {
		return nil, err
	}
	if err := requireText("utr", req.UTR); err != nil {
		return nil, err
	}
	ref, err := s.client.reference(&req.ClientReferenceID)
	if err != nil {
		return nil, err
	}
	op := payoutCreate(opPayinsInitiate.op(), initiatePayinBody(req), ref, req.QuotationID, req.CustomerID)
	op.utr, op.settle = req.UTR, settlePayin
	// The UTR, always sent and taken once by the service, guards a repeat
	// even without a reference.
	op.safety = guarded
	p, err := call[types.Payin](ctx, s.client, op, opts)
	if err != nil {
		return nil, err
	}
	fillReference(&p.ClientReferenceID, ref)
	return p, nil
}

// Get fetches a payin by its own id: GET /pis/api/v1/payin/{payin_id},
// no body. The fetched payin carries amounts as decimal strings, the UTR,
// the exchange transfer id once linked, the status, failure_reason when
// FAILED, refund_reason once a refund begins, and updated_at. A nil
// payinID is refused before sending (ErrInvalidRequest); the service
// refuses a missing or malformed id with ErrPayinIDInvalid, and another
// organization's payin with ErrPayinNotFound (AUTH_ORG_MISMATCH).
func (s *PayinsService) Get(ctx context.Context, payinID uuid.UUID, opts ...RequestOption) (*types.Payin, error) {
	if err := requireID("payin_id", payinID); err != nil {
		return nil, err
	}
	return call[types.Payin](ctx, s.client, opPayinsGet.op(payinID.String()), opts)
}

var linkPayinTransferBody = compileBody[types.LinkPayinTransferRequest]()

// LinkTransfer stores on a payin the exchange transfer that delivered its
// asset: PATCH /pis/api/v1/payin/update-transfer-id with
// {"exchange_transfer_id", "payin_id"}; the answer is the same two. It
// sets a value, so a repeat does no harm and it is retried like a read.
// A nil PayinID or a blank ExchangeTransferID is refused before sending
// (ErrInvalidRequest).
func (s *PayinsService) LinkTransfer(ctx context.Context, req types.LinkPayinTransferRequest, opts ...RequestOption) (*types.PayinTransferLink, error) {
	if err := requireID("payin_id", req.PayinID); err != nil {
		return nil, err
	}
	if err := requireText("exchange_transfer_id", req.ExchangeTransferID); err != nil {
		return nil, err
	}
	return call[types.PayinTransferLink](ctx, s.client, opPayinsLinkTransfer.op().with(linkPayinTransferBody(req)), opts)
}

// The request bodies of the payin calls (see encode.go).
// plainDigits returns how many digits d has written in plain positional
// notation with every digit of its scale, as sending_amount is sent
// ("0.001" has 4, 1E3 has 4), without writing it.
func plainDigits(d decimal.Decimal) int64 {
	n, exp := int64(d.NumDigits()), int64(d.Exponent())
	if exp >= 0 {
		return n + exp
	}
	if n > -exp {
		return n // digits on both sides of the point
	}
	return -exp + 1 // "0." and the scale
}
