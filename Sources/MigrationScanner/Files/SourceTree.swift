import Foundation

/// The source files a scan reads: a file given by path, or every `.m`, `.mm`, `.h` and `.swift` file
/// under a directory, in name order. Walking skips hidden entries (`.build`, `.git`) and does not
/// follow links to directories (so it cannot loop); links to files are followed.
enum SourceTree {
    /// The source files at `path`, and what could not be read on the way.
    static func files(at path: String) -> (files: [String], problems: [ScanProblem]) {
        var status = stat()
        guard stat(path, &status) == 0 else { return ([], [SourceFile.systemProblem(path)]) }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            guard SourceLanguage(path: path) != nil else {
                return ([], [ScanProblem(path: path, message: "not a .m, .mm, .h or .swift file")])
            }
            return ([path], [])
        }
        var files: [String] = []
        var problems: [ScanProblem] = []
        var directories = [path]
        while let directory = directories.popLast() {
            guard let names = entries(of: directory) else {
                problems.append(SourceFile.systemProblem(directory))
                continue
            }
            var subdirectories: [String] = []
            for name in names.sorted() where !name.hasPrefix(".") {
                let child = directory.hasSuffix("/") ? directory + name : directory + "/" + name
                switch kind(of: child) {
                case S_IFDIR: subdirectories.append(child)
                case S_IFREG where SourceLanguage(path: name) != nil: files.append(child)
                default: break
                }
            }
            directories.append(contentsOf: subdirectories.reversed())
        }
        return (files, problems)
    }

    /// The type bits of `path`'s entry; a link to a regular file counts as the file, any other link
    /// as nothing.
    private static func kind(of path: String) -> mode_t {
        var status = stat()
        guard lstat(path, &status) == 0 else { return 0 }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFLNK else { return kind }
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return 0 }
        return S_IFREG
    }

    /// The names in `directory`, or `nil` (with `errno` set) when it cannot be read.
    private static func entries(of directory: String) -> [String]? {
        guard let stream = opendir(directory) else { return nil }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
