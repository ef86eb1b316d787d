package main

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// writeOpenAPI writes the server's /openapi/v2 as the release's
// api/openapi-spec/swagger.json is written (`jq -S '.info.version="unversioned"'`):
// keys sorted, two-space indent, no HTML escaping, numbers as the server
// wrote them.
func writeOpenAPI(s *server, out string) error {
	body, err := s.get("/openapi/v2")
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return fmt.Errorf("GET /openapi/v2 is not a JSON object: %w", err)
	}
	info, ok := doc["info"].(map[string]any)
	if !ok {
		return fmt.Errorf("GET /openapi/v2 has no info object")
	}
	info["version"] = "unversioned"
	data, err := marshalIndented(doc)
	if err != nil {
		return err
	}
	return writeOutput(out, data)
}
