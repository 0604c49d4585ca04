// swift-tools-version:6.1
import PackageDescription

// libFuzzer executables for the targets in the main package's FuzzTargets library. Built apart from
// the main package because they need the fuzzer and address sanitizer flags, and the environment
// variable that makes the main package declare that library (see README.md):
//     ASYNCSOCKETKIT_FUZZ_TARGETS=1 swift build --package-path Tests/Fuzz --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address
let package = Package(
    name: "AsyncSocketKitFuzz",
    dependencies: [.package(name: "AsyncSocketKit", path: "../..")],
    targets: ["FuzzEngine", "FuzzTLSSettings", "FuzzTLSEngine"].map { name in
        .executableTarget(name: name, dependencies: [.product(name: "FuzzTargets", package: "AsyncSocketKit")])
    },
    swiftLanguageModes: [.v6]
)
