package sandbox

// The payin configuration: GET /pis/api/v1/payin/configuration, shaped as
// the payout configuration (configurationOf, payouts_configuration.go),
// with the bounds the payin quotation applies.

import (
	"github.com/shopspring/decimal"

	"github.com/fiatramp/fiatramp-go/types"
)

// getPayinConfiguration is GET /pis/api/v1/payin/configuration:
// payinConfigurationReply.
func (s *Sandbox) getPayinConfiguration(*request) reply { return s.static.payinConfiguration }

// payinConfigurationReply, encoded once by New, shows for each priced pair
// and payment method the bounds a payin quotation applies, in units of
// the asset: the service bounds a payin quotation's fiat sending_amount
// (above Settings.MinPayinAmount, at most MaxIMPSAmount or MaxUPIAmount),
// so min and max are the crypto a quotation of exactly those fiat amounts
// would deliver at the pair's rate and fees (payinReceiving). A quotation
// is accepted exactly when its crypto lies within them, min excluded as
// the fiat minimum is.
func (s *Sandbox) payinConfigurationReply() reply {
	return s.configurationOf(func(_ string, rate decimal.Decimal) map[types.PaymentMethod]CoinLimit {
		low := s.payinReceiving(s.settings.MinPayinAmount, rate)
		return map[types.PaymentMethod]CoinLimit{
			types.PaymentMethodIMPS: {Min: low, Max: s.payinReceiving(s.settings.MaxIMPSAmount, rate)},
			types.PaymentMethodUPI:  {Min: low, Max: s.payinReceiving(s.settings.MaxUPIAmount, rate)},
		}
	})
}

// payinReceiving is what a payin quotation of fiat amount delivers at
// rate: amount less the service fee (rounded to 2 places) and the GST on
// it, divided by the rate and truncated to 6 places.
func (s *Sandbox) payinReceiving(amount, rate decimal.Decimal) decimal.Decimal {
	receiving, _, _ := s.payinPrice(amount, rate)
	return receiving
}

// payinPrice is payinReceiving with the fee and GST it deducted.
func (s *Sandbox) payinPrice(amount, rate decimal.Decimal) (receiving, fee, gst decimal.Decimal) {
	fee = amount.Mul(s.settings.PayinServiceFee).Round(2)
	gst = fee.Mul(s.settings.PayinGSTRate).Round(2)
	receiving, _ = amount.Sub(fee).Sub(gst).QuoRem(rate, 6) // truncated to 6 places
	return receiving, fee, gst
}
