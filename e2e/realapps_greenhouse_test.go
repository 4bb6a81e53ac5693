package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The Greenhouse API is what Swagger UI documents in the real-app corpus:
// its OpenAPI description (testdata/realapps/greenhouse-openapi.json) and
// the API itself, so that "Try it out" gets real answers from loopback. It
// answers the same to the same request, as a read-only demo server does;
// what real servers vary (the Date header net/http writes) varies.

// greenhouseAPIKey is the key the orders need: the secret the flow types
// into Swagger UI's Authorize dialog, which must leak nowhere.
const greenhouseAPIKey = "Zq7+vK9/wLm4Xr"

type greenhousePlant struct {
	ID      int     `json:"id"`
	Name    string  `json:"name"`
	Species string  `json:"species,omitempty"`
	Status  string  `json:"status"`
	Price   float64 `json:"price"`
}

type greenhouseError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

var greenhousePlants = []greenhousePlant{
	{1, "Monstera", "Monstera deliciosa", "available", 24.5},
	{2, "Snake plant", "Dracaena trifasciata", "available", 18},
	{3, "Bird of paradise", "Strelitzia nicolai", "reserved", 55},
	{4, "Peace lily", "Spathiphyllum wallisii", "available", 21},
	{5, "Olive tree", "Olea europaea", "sold", 89},
}

// greenhouseAPI serves /openapi.json and /api/….
func greenhouseAPI() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /openapi.json", func(w http.ResponseWriter, r *http.Request) {
		spec, err := os.ReadFile(filepath.Join(RepoRoot(), "e2e", "testdata", "realapps", "greenhouse-openapi.json"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(spec)
	})
	mux.HandleFunc("GET /api/plants", greenhouseListPlants)
	mux.HandleFunc("POST /api/plants", greenhouseAddPlant)
	mux.HandleFunc("GET /api/plants/{id}", func(w http.ResponseWriter, r *http.Request) {
		id, err := strconv.Atoi(r.PathValue("id"))
		for _, p := range greenhousePlants {
			if err == nil && p.ID == id {
				greenhouseJSON(w, http.StatusOK, p)
				return
			}
		}
		greenhouseJSON(w, http.StatusNotFound, greenhouseError{404, fmt.Sprintf("No plant has the id %s", r.PathValue("id"))})
	})
	mux.HandleFunc("GET /api/orders/{id}", func(w http.ResponseWriter, r *http.Request) {
		if !greenhouseAuthorized(w, r) {
			return
		}
		if r.PathValue("id") != "GH-1001" {
			greenhouseJSON(w, http.StatusNotFound, greenhouseError{404, "No order has the id " + r.PathValue("id")})
			return
		}
		greenhouseJSON(w, http.StatusOK, map[string]any{"id": "GH-1001", "plantId": 3, "quantity": 2, "status": "shipped", "shipDate": "2026-11-28"})
	})
	mux.HandleFunc("DELETE /api/orders/{id}", func(w http.ResponseWriter, r *http.Request) {
		if greenhouseAuthorized(w, r) {
			w.WriteHeader(http.StatusNoContent)
		}
	})
	return mux
}

func greenhouseAuthorized(w http.ResponseWriter, r *http.Request) bool {
	if r.Header.Get("X-API-Key") != greenhouseAPIKey {
		greenhouseJSON(w, http.StatusUnauthorized, greenhouseError{401, "The API key is missing or wrong"})
		return false
	}
	return true
}

func greenhouseListPlants(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	status := q.Get("status")
	if status == "" {
		status = "available"
	}
	limit := 20
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 50 {
			greenhouseJSON(w, http.StatusBadRequest, greenhouseError{400, "limit must be a whole number from 1 to 50"})
			return
		}
		limit = n
	}
	var out []greenhousePlant
	for _, p := range greenhousePlants {
		if p.Status == status && len(out) < limit {
			out = append(out, p)
		}
	}
	if strings.Contains(r.Header.Get("Accept"), "text/csv") {
		w.Header().Set("Content-Type", "text/csv")
		var b strings.Builder
		b.WriteString("id,name,species,status,price\n")
		for _, p := range out {
			fmt.Fprintf(&b, "%d,%s,%s,%s,%.2f\n", p.ID, p.Name, p.Species, p.Status, p.Price)
		}
		_, _ = w.Write([]byte(b.String()))
		return
	}
	if out == nil {
		out = []greenhousePlant{}
	}
	greenhouseJSON(w, http.StatusOK, out)
}

func greenhouseAddPlant(w http.ResponseWriter, r *http.Request) {
	var p greenhousePlant
	if err := json.NewDecoder(r.Body).Decode(&p); err != nil {
		greenhouseJSON(w, http.StatusUnprocessableEntity, greenhouseError{422, "The body is not a plant: " + err.Error()})
		return
	}
	if strings.TrimSpace(p.Name) == "" {
		greenhouseJSON(w, http.StatusUnprocessableEntity, greenhouseError{422, "A plant needs a name"})
		return
	}
	// Stored nowhere: each run of the flow adds the same plant.
	p.ID, p.Status = len(greenhousePlants)+1, "available"
	w.Header().Set("Location", fmt.Sprintf("/api/plants/%d", p.ID))
	greenhouseJSON(w, http.StatusCreated, p)
}

func greenhouseJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}
