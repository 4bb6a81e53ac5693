// Stands in for a WPT resource the oracle pages load but do not need.
