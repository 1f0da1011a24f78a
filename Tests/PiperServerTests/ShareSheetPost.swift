import Foundation

/// The share sheet's post as Android makes it for the installed app: a multipart form submitted
/// (a navigation) to the manifest's `share_target` action, with its text fields and files.
enum ShareSheetPost {
    struct File {
        let name: String
        let type: String
        let bytes: Data
    }

    /// A script for `BrowserScript.submit` that posts `fields` and `files` to `/share`.
    static func script(_ fields: [(name: String, value: String)], files: [File] = []) -> String {
        func literal(_ text: String) -> String {
            String(decoding: (try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])) ?? Data("[\"\"]".utf8),
                   as: UTF8.self).dropFirst().dropLast().description
        }
        let inputs = fields.map { "[\(literal($0.name)), \(literal($0.value))]" }.joined(separator: ", ")
        let added = files.map {
            "files.items.add(new File([bytes('\($0.bytes.base64EncodedString())')], \(literal($0.name)), { type: \(literal($0.type)) }));"
        }.joined(separator: "\n")
        return """
            (function () {
              var form = document.createElement('form');
              form.method = 'post'; form.action = '/share'; form.enctype = 'multipart/form-data';
              [\(inputs)].forEach(function (pair) {
                var input = document.createElement('input'); input.type = 'hidden'; input.name = pair[0]; input.value = pair[1];
                form.appendChild(input);
              });
              function bytes(b64) { return Uint8Array.from(atob(b64), function (c) { return c.charCodeAt(0); }); }
              var files = new DataTransfer();
              \(added)
              if (files.files.length) {
                var file = document.createElement('input'); file.type = 'file'; file.name = 'file'; file.multiple = true;
                file.files = files.files; form.appendChild(file);
              }
              document.body.appendChild(form); form.submit(); return 1;
            })()
            """
    }
}
