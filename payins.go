package fiatramp

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/fiatramp/fiatramp-go/types"
)

// PayinsAPI is the method set of PayinsService, for substituting a fake.
// Methods may be added in minor versions: embed PayinsAPI in the fake's
// struct so that it keeps compiling.
type PayinsAPI interface {
	CreateQuotation(ctx context.Context, req types.CreatePayinQuotationRequest, opts ...RequestOption) (*types.PayinQuotation, error)
	GetQuotation(ctx context.Context, quotationID uuid.UUID, opts ...RequestOption) (*types.PayinQuotation, error)
	SimulateStatus(ctx context.Context, quotationID uuid.UUID, status types.PayinStatus, opts ...RequestOption) (*types.PayinStatusSimulation, error)
	// Configuration, rates, limits and EDD.
	Rate(ctx context.Context, req types.RateRequest, opts ...RequestOption) (*types.Rate, error)
	Configuration(ctx context.Context, opts ...RequestOption) (*types.Configuration, error)
	Limits(ctx context.Context, customerID uuid.UUID, opts ...RequestOption) (*types.Limits, error)
	SaveEDD(ctx context.Context, req types.SavePayinEDDRequest, opts ...RequestOption) (*types.EDD, error)
}

var _ PayinsAPI = (*PayinsService)(nil)

// PayinsService quotes payins: a customer pays fiat over IMPS or UPI from a
// verified bank account at a locked rate. A quotation is created with
// POST /pis/api/v1/payin/quotation and read back with
// GET /pis/api/v1/payin/quotation/{quotation_id}.
type PayinsService struct{ client *Client }

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
// or BankID, or a payment method other than IMPS or UPI is refused before
// sending (ErrInvalidRequest). The service's refusals match
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
	if !req.PaymentMethod.IsKnown() {
		return nil, invalid("payment_method", "want IMPS or UPI, got "+quote(string(req.PaymentMethod)))
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

// SimulateStatus moves the payin of a payin quotation to status, in the
// sandbox only: PATCH /pis/api/v1/payin/mock-payin-status with
// {"payin_status", "quotation_id"}. The sandbox allows PROCESSING ->
// SUCCESS or FAILED and FAILED -> REFUNDED, and refuses every other move.
// An unknown status is refused before sending.
func (s *PayinsService) SimulateStatus(ctx context.Context, quotationID uuid.UUID, status types.PayinStatus, opts ...RequestOption) (*types.PayinStatusSimulation, error) {
	if err := requireID("quotation_id", quotationID); err != nil {
		return nil, err
	}
	if !status.IsKnown() {
		return nil, invalid("payin_status", "unknown payin status "+quote(string(status)))
	}
	body := payinStatusBody(payinStatusRequest{QuotationID: quotationID, PayinStatus: status})
	return call[types.PayinStatusSimulation](ctx, s.client, opPayinsSimulateStatus.op().with(body), opts)
}

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
