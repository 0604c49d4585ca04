/// Two lists side by side, numbered, with the row at `around` marked and a few rows of context.
enum TwoColumns {
    static func render(
        titles: (String, String), left: [String], right: [String], around index: Int, context: Int = 3
    ) -> String {
        let first = max(0, index - context)
        let last = min(max(left.count, right.count) - 1, index + context)
        let rows = first <= last ? Array(first...last) : []
        let width = min(60, ([titles.0] + rows.map { cell(left, $0) }).map(\.count).max() ?? 0)
        var lines = ["     \(pad(titles.0, width)) │ \(titles.1)"]
        for row in rows {
            let marker = row == index ? ">" : " "
            let number = String(row)
            let numbered = String(repeating: " ", count: max(0, 3 - number.count)) + number
            lines.append("\(marker)\(numbered) \(pad(cell(left, row), width)) │ \(cell(right, row))")
        }
        return lines.joined(separator: "\n")
    }

    private static func cell(_ column: [String], _ row: Int) -> String {
        row < column.count ? column[row] : "—"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? String(text.prefix(width)) : text + String(repeating: " ", count: width - text.count)
    }
}
