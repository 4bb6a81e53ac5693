package demo

import (
	"slices"
	"strconv"
	"strings"
)

// cents is an amount of US dollars in cents; money is never a float.
type cents int64

// String writes the amount as the shop shows it: $1,234.50, or -$84.80.
func (c cents) String() string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	whole := strconv.FormatInt(int64(c/100), 10)
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	frac := int64(c % 100)
	return sign + "$" + b.String() + "." + string(rune('0'+frac/10)) + string(rune('0'+frac%10))
}

// A product of the shop. The catalogue is fixed so that every start of the
// shop shows the same pages.
type product struct {
	Slug     string
	Name     string
	Category string
	Price    cents
	// Stock is what the product page shows; it never goes down, so one
	// session's order cannot change another session's pages.
	Stock       int
	Description string
	Specs       []spec
	// Index is the product's place in the catalogue; generated ids derive
	// from it.
	Index int
}

type spec struct{ Term, Detail string }

// lowStock is the stock at or below which a product shows "Only N left".
const lowStock = 5

// StockText is the availability line of a product.
func (p product) StockText() string {
	switch {
	case p.Stock == 0:
		return "Out of stock"
	case p.Stock <= lowStock:
		return "Only " + strconv.Itoa(p.Stock) + " left"
	}
	return "In stock"
}

// InStock is whether the product can be added to a cart.
func (p product) InStock() bool { return p.Stock > 0 }

// catalogue is the normal shop's product list, in its normal order. Names are
// chosen so that exact matching matters: "iPhone 17" must not match
// "iPhone 18" nor "iPhone 17 Silicone Case".
var catalogue = []product{
	{Slug: "iphone-17", Name: "iPhone 17", Category: "Phones", Price: 79900, Stock: 12,
		Description: "A 6.3-inch phone with an all-day battery and a camera that handles low light well.",
		Specs:       []spec{{"Display", "6.3-inch OLED"}, {"Storage", "256 GB"}, {"Colour", "Sage"}}},
	{Slug: "iphone-18", Name: "iPhone 18", Category: "Phones", Price: 99900, Stock: 8,
		Description: "The newest phone in the range, with a brighter display and twice the storage.",
		Specs:       []spec{{"Display", "6.5-inch OLED"}, {"Storage", "512 GB"}, {"Colour", "Graphite"}}},
	{Slug: "iphone-17-case", Name: "iPhone 17 Silicone Case", Category: "Accessories", Price: 4900, Stock: 40,
		Description: "A soft-touch case that fits the iPhone 17 exactly and keeps its corners safe.",
		Specs:       []spec{{"Material", "Silicone"}, {"Fits", "iPhone 17"}, {"Colour", "Clay"}}},
	{Slug: "pixel-10", Name: "Pixel 10", Category: "Phones", Price: 69900, Stock: 5,
		Description: "A clean, fast phone with seven years of updates.",
		Specs:       []spec{{"Display", "6.2-inch OLED"}, {"Storage", "128 GB"}, {"Colour", "Obsidian"}}},
	{Slug: "galaxy-s26", Name: "Galaxy S26", Category: "Phones", Price: 84900, Stock: 0,
		Description: "A compact flagship with a 120 Hz display.",
		Specs:       []spec{{"Display", "6.2-inch AMOLED"}, {"Storage", "256 GB"}, {"Colour", "Mint"}}},
	{Slug: "airpods-pro", Name: "AirPods Pro", Category: "Audio", Price: 24900, Stock: 25,
		Description: "Wireless earbuds with active noise cancellation and a charging case.",
		Specs:       []spec{{"Battery", "6 hours"}, {"Charging", "USB-C"}, {"Colour", "White"}}},
	{Slug: "studio-headphones", Name: "Studio Headphones", Category: "Audio", Price: 34900, Stock: 3,
		Description: "Over-ear headphones tuned for long listening sessions.",
		Specs:       []spec{{"Battery", "30 hours"}, {"Weight", "250 g"}, {"Colour", "Black"}}},
	{Slug: "usb-c-charger", Name: "USB-C Charger 30W", Category: "Accessories", Price: 3900, Stock: 100,
		Description: "A small wall charger that fast-charges phones and tablets.",
		Specs:       []spec{{"Power", "30 W"}, {"Port", "USB-C"}, {"Colour", "White"}}},
	{Slug: "smart-watch", Name: "Smart Watch 9", Category: "Wearables", Price: 39900, Stock: 10,
		Description: "Tracks workouts, sleep and heart rate, and shows your messages.",
		Specs:       []spec{{"Case", "45 mm"}, {"Battery", "18 hours"}, {"Colour", "Midnight"}}},
	{Slug: "e-reader", Name: "E-reader Paperwhite", Category: "Readers", Price: 15999, Stock: 14,
		Description: "A glare-free reader with a warm light and weeks of battery.",
		Specs:       []spec{{"Display", "7-inch e-ink"}, {"Storage", "16 GB"}, {"Colour", "Black"}}},
	{Slug: "mechanical-keyboard", Name: "Mechanical Keyboard", Category: "Computers", Price: 12900, Stock: 20,
		Description: "A tenkeyless keyboard with quiet tactile switches.",
		Specs:       []spec{{"Layout", "US, tenkeyless"}, {"Switches", "Tactile"}, {"Colour", "Grey"}}},
	{Slug: "wireless-mouse", Name: "Wireless Mouse", Category: "Computers", Price: 2999, Stock: 30,
		Description: "A light mouse that pairs with three devices.",
		Specs:       []spec{{"Battery", "70 days"}, {"Connection", "Bluetooth"}, {"Colour", "Grey"}}},
}

// changedPrice is what PriceChanged charges for changedPriceSlug.
const (
	changedPriceSlug = "iphone-17"
	changedPrice     = cents(82900)
)

// productsFor returns the catalogue as the variant shows it: prices and
// order may differ, names and slugs never do.
func productsFor(variant string) []product {
	ps := slices.Clone(catalogue)
	for i := range ps {
		ps[i].Index = i
		if variant == PriceChanged && ps[i].Slug == changedPriceSlug {
			ps[i].Price = changedPrice
		}
	}
	if variant == Reordered {
		slices.Reverse(ps)
	}
	return ps
}

// findProduct returns the product with the slug, as the variant shows it.
func findProduct(variant, slug string) (product, bool) {
	for _, p := range productsFor(variant) {
		if p.Slug == slug {
			return p, true
		}
	}
	return product{}, false
}

// search returns the products whose name or category contains q, ignoring
// case; an empty q returns them all.
func search(variant, q string) []product {
	q = strings.ToLower(strings.TrimSpace(q))
	var found []product
	for _, p := range productsFor(variant) {
		if q == "" || strings.Contains(strings.ToLower(p.Name), q) || strings.Contains(strings.ToLower(p.Category), q) {
			found = append(found, p)
		}
	}
	return found
}

// related returns up to n other products of the same category, then others,
// in catalogue order, for the "You might also like" list.
func related(variant string, p product, n int) []product {
	var same, other []product
	for _, q := range productsFor(Normal) {
		if q.Slug == p.Slug {
			continue
		}
		q, _ = findProduct(variant, q.Slug)
		if q.Category == p.Category {
			same = append(same, q)
		} else {
			other = append(other, q)
		}
	}
	return append(same, other...)[:n]
}

// countries are the delivery countries of the checkout's select, in the order
// shown.
var countries = []string{
	"Australia", "Canada", "France", "Germany", "Japan", "United Kingdom", "United States",
}

// itemCount writes a count the way the shop's item-count lines do: "1 item",
// "3 items".
func itemCount(n int) string {
	if n == 1 {
		return "1 item"
	}
	return strconv.Itoa(n) + " items"
}
