package inspect

import (
	"strconv"
	"strings"
)

// renderTable prints a preview as console.table does in Node: one row per
// item or property, one column per key of the rows (or "Values" for rows
// that are not objects), with box-drawing borders. columns, when given,
// selects and orders the columns. It returns false when data is not a
// table (a primitive), which is then printed like console.log.
func renderTable(data any, columns []string) (string, bool) {
	type row struct {
		index string
		keys  []string // in the row object's order
		cells map[string]string
		value string
		plain bool
	}
	var rows []row
	addRow := func(index string, v any) {
		r := row{index: index, cells: map[string]string{}}
		switch props := rowProps(v); {
		case columns != nil && props == nil:
			// Node shows no Values column when the columns are given.
		case props != nil:
			for _, f := range props {
				if f.Key == "…" {
					continue
				}
				r.keys = append(r.keys, f.Key)
				r.cells[f.Key] = renderCell(f.Value)
			}
		default:
			r.value, r.plain = renderCell(v), true
		}
		rows = append(rows, r)
	}
	t, ok := data.(map[string]any)
	if !ok {
		return "", false
	}
	if grid, ok := iterationTable(t); ok {
		return drawTable(grid), true
	}
	switch t["$t"] {
	case "array":
		items, _ := t["items"].([]any)
		i := 0
		for _, it := range items {
			if m, ok := it.(map[string]any); ok && (m["$t"] == "more" || m["$t"] == "empty") {
				continue
			}
			addRow(strconv.Itoa(i), it)
			i++
		}
	case "object":
		props, _ := t["props"].(object)
		for _, f := range props {
			addRow(f.Key, f.Value)
		}
	case "map":
		entries, _ := t["entries"].([]any)
		for i, en := range entries {
			if kv, ok := en.([2]any); ok {
				addRow(strconv.Itoa(i), kv[1])
			}
		}
	default:
		return "", false
	}

	header := []string{"(index)"}
	if columns != nil {
		header = append(header, columns...)
	} else {
		seen := map[string]bool{}
		for _, r := range rows {
			for _, k := range r.keys {
				if !seen[k] {
					seen[k] = true
					header = append(header, k)
				}
			}
		}
	}
	hasValues := false
	for _, r := range rows {
		hasValues = hasValues || r.plain
	}
	if hasValues {
		header = append(header, "Values")
	}
	grid := [][]string{header}
	for _, r := range rows {
		line := []string{r.index}
		for _, k := range header[1:] {
			switch {
			case k == "Values" && hasValues && r.plain:
				line = append(line, r.value)
			default:
				line = append(line, r.cells[k])
			}
		}
		grid = append(grid, line)
	}
	return drawTable(grid), true
}

// iterationTable is Node's table of a Map (its entries' keys and values)
// or a Set (its values), numbered by iteration index; columns do not
// apply (lib/internal/console/constructor.js, table: mapIter, setIter).
func iterationTable(t map[string]any) ([][]string, bool) {
	switch t["$t"] {
	case "map":
		if t["params"] == true {
			// Not a Map to Node's table: an object without keys.
			return [][]string{{"(index)"}}, true
		}
		grid := [][]string{{"(iteration index)", "Key", "Values"}}
		entries, _ := t["entries"].([]any)
		for _, en := range entries {
			if kv, ok := en.([2]any); ok {
				grid = append(grid, []string{strconv.Itoa(len(grid) - 1), renderCell(kv[0]), renderCell(kv[1])})
			}
		}
		return grid, true
	case "set":
		grid := [][]string{{"(iteration index)", "Values"}}
		values, _ := t["values"].([]any)
		for _, v := range values {
			if m, ok := v.(map[string]any); ok && m["$t"] == "more" {
				continue
			}
			grid = append(grid, []string{strconv.Itoa(len(grid) - 1), renderCell(v)})
		}
		return grid, true
	}
	return nil, false
}

// drawTable draws grid (its first line the header) with box-drawing
// borders, each column as wide as its widest cell.
func drawTable(grid [][]string) string {
	width := make([]int, len(grid[0]))
	for _, line := range grid {
		for i, c := range line {
			width[i] = max(width[i], stringWidth(c))
		}
	}
	var b strings.Builder
	border := func(l, m, r string) {
		b.WriteString(l)
		for i, w := range width {
			if i > 0 {
				b.WriteString(m)
			}
			b.WriteString(strings.Repeat("─", w+2))
		}
		b.WriteString(r)
	}
	border("┌", "┬", "┐\n")
	for n, line := range grid {
		b.WriteString("│")
		for i, c := range line {
			b.WriteString(" " + c + strings.Repeat(" ", width[i]-stringWidth(c)) + " │")
		}
		b.WriteString("\n")
		if n == 0 {
			border("├", "┼", "┤\n")
		}
	}
	border("└", "┴", "┘")
	return b.String()
}

// rowProps returns the cells of a table row that is an object or array.
func rowProps(v any) object {
	m, ok := v.(map[string]any)
	if !ok {
		if o, ok := v.(object); ok {
			return o
		}
		return nil
	}
	switch m["$t"] {
	case "object":
		p, _ := m["props"].(object)
		if p == nil {
			return object{}
		}
		return p
	case "map", "set", "function", "error", "date", "regexp":
		return object{} // an object whose own keys are none of these
	case "array":
		items, _ := m["items"].([]any)
		out := make(object, 0, len(items))
		for i, it := range items {
			out = append(out, field{Key: strconv.Itoa(i), Value: it})
		}
		return out
	}
	return nil
}
