package main

// What "fiatramp payouts get-limits" and "payins get-limits" share: the
// rows of their table.

// limitsFields are the rows of a limits table.
func limitsFields() []field {
	return []field{
		f("daily_limit", "daily_limit", "maximum_daily_limit"),
		f("available_limit", "available_limit", "available_daily_limit"),
		f("payment_method_limits"),
		f("full_limit_reset_timestamp"), f("is_edd_required"), f("is_limit_increase_available"),
	}
}
