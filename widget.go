package fiatramp

import (
	"context"

	"github.com/fiatramp/fiatramp-go/types"
)

// WidgetAPI is the method set of WidgetService, for substituting a fake.
// Methods may be added in minor versions: embed WidgetAPI in the fake's
// struct so that it keeps compiling.
type WidgetAPI interface {
	Initialize(ctx context.Context, req types.WidgetRequest, opts ...RequestOption) (*types.Widget, error)
}

var _ WidgetAPI = (*WidgetService)(nil)

// WidgetService opens sessions of the service's hosted widget, a page where
// the customer buys an asset with fiat. Each method's doc names the HTTP
// call it makes; Operations lists them all.
type WidgetService struct{ client *Client }

var widgetBody = compileBody[types.WidgetRequest]()

// Initialize opens a hosted widget session for an order and returns its
// link, which carries a token valid 30 minutes: POST /widget/initialize
// (under no /api/v1 prefix) with {"asset_code", "fiat_amount",
// "fiat_currency", "flow_type", "network_code", "payment_method",
// "wallet_address"}, answering {widget_link}. fiat_amount is sent as a
// decimal string exactly as given; flow_type and network_code in lower
// case ("buy", "tron"), as the service documents them, whatever the case
// given. A blank member, or a FiatAmount not
// above zero, is refused before sending (ErrInvalidRequest); FlowType and
// PaymentMethod are refused only when empty, never for being unknown.
func (s *WidgetService) Initialize(ctx context.Context, req types.WidgetRequest, opts ...RequestOption) (*types.Widget, error) {
	for _, m := range [...]struct{ field, value string }{
		{"asset_code", req.AssetCode},
		{"fiat_currency", req.FiatCurrency},
		{"flow_type", string(req.FlowType)},
		{"network_code", req.NetworkCode},
		{"payment_method", string(req.PaymentMethod)},
		{"wallet_address", req.WalletAddress},
	} {
		if err := requireText(m.field, m.value); err != nil {
			return nil, err
		}
	}
	if !req.FiatAmount.IsPositive() {
		return nil, invalid("fiat_amount", "must be above zero, got "+quote(req.FiatAmount.String()))
	}
	return call[types.Widget](ctx, s.client, opWidgetInitialize.op().with(widgetBody(req)), opts)
}
