package fiatramp

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/fiatramp/fiatramp-go/types"
)

var createPayoutQuotationBody = compileBody[types.CreatePayoutQuotationRequest]()

// The request bodies of the payout quotation operations.
// CreateQuotation locks a rate for a payout and returns the amounts, the
// fees and an expiry time: POST /pos/api/v1/payout/quotation with
// {"asset", "bank_id", "customer_id", "fiat", "network", "risk_parameters":
// {"device_id", "ip_address", "law_enforcement_agency_report",
// "suspicious_activity_report"}, "sending_amount"}. Asset and fiat are
// sent in lower case and the amount as a JSON string with every digit
// kept; network, device_id and ip_address only when set. The answer
// carries numbers; in the on-chain model also the network and the deposit
// address (WalletAddress) the crypto is to be sent to. Create the payout
// (Create) before ExpiryTime.
//
// A blank asset or fiat, an amount that is not positive or that written
// out has more than types.MaxDecimalDigits digits, or a nil CustomerID or
// BankID is refused before sending (ErrInvalidRequest). The service's
// refusals match ErrCustomerUnverified (KYC not verified, or not the
// organization's customer), ErrBankUnverified, ErrUPIUnsupported (a UPI id
// as the destination: payouts go to bank accounts only) and
// ErrAmountBelowMinimum; an amount over the configuration's maximum
// matches ErrAmountAboveMaximum (the sandbox refuses it so).
//
// A spare quotation expires unused, so the call is retried like a read.
func (s *PayoutsService) CreateQuotation(ctx context.Context, req types.CreatePayoutQuotationRequest, opts ...RequestOption) (*types.PayoutQuotation, error) {
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
	return call[types.PayoutQuotation](ctx, s.client, opPayoutsCreateQuotation.op().with(createPayoutQuotationBody(req)), opts)
}

// GetQuotation fetches a payout quotation with its order id and status:
// GET /pos/api/v1/payout/quotation/{quotation_id}, no body. Status is
// UNLINKED until a payout is created on the quotation, then LINKED, or
// EXPIRED once it expired unused; any other value is kept as text. A nil
// quotationID is refused before sending (ErrInvalidRequest); the service
// refuses a missing or malformed id with ErrQuotationIDInvalid, and an
// absent or another organization's quotation with ErrQuotationNotFound
// (and ErrNotFound).
func (s *PayoutsService) GetQuotation(ctx context.Context, quotationID uuid.UUID, opts ...RequestOption) (*types.PayoutQuotation, error) {
	if err := requireID("quotation_id", quotationID); err != nil {
		return nil, err
	}
	return call[types.PayoutQuotation](ctx, s.client, opPayoutsGetQuotation.op(quotationID.String()), opts)
}

var linkTransferBody = compileBody[types.LinkTransferRequest]()

// LinkTransfer records on the payout of an exchange order the id of the
// exchange transfer that funds it: PATCH
// /pos/api/v1/payout/update-transfer-id with {"exchange_order_id",
// "exchange_transfer_id"}, both sent as given. The answer repeats the
// two; the fetched payout shows the transfer id from then on. A blank
// ExchangeOrderID or ExchangeTransferID is refused before sending
// (ErrInvalidRequest); an exchange order no payout of the organization
// holds is refused with ErrNotFound.
//
// The call sets a value, so a repeat sets the same value again: it is
// retried like a read.
func (s *PayoutsService) LinkTransfer(ctx context.Context, req types.LinkTransferRequest, opts ...RequestOption) (*types.TransferLink, error) {
	if err := requireText("exchange_order_id", req.ExchangeOrderID); err != nil {
		return nil, err
	}
	if err := requireText("exchange_transfer_id", req.ExchangeTransferID); err != nil {
		return nil, err
	}
	return call[types.TransferLink](ctx, s.client, opPayoutsLinkTransfer.op().with(linkTransferBody(req)), opts)
}
