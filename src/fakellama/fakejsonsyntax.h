#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace switchyard::fake {

// What llama-server says about a request body that is not JSON. It parses bodies with
// nlohmann::json (strict, no comments) and answers 500 server_error with the exception's text:
//   [json.exception.parse_error.101] parse error at line 1, column 10: syntax error while parsing
//   value - unexpected end of input; expected '[', '{', or a literal
// This follows nlohmann's lexer and parser (llama.cpp's vendor/nlohmann/json.hpp) closely enough
// to give the same line, column, wording and "last read" text. Nothing for a valid body.
std::optional<QString> jsonSyntaxError(const QByteArray &body);

} // namespace switchyard::fake
