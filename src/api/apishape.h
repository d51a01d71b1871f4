#pragma once

namespace switchyard {

// The error vocabulary of the API a request speaks. Every refusal goes out in the shape its
// client parses: Anthropic's on /v1/messages, the Responses API's on /v1/responses, OpenAI's
// (which llama.cpp also uses) elsewhere.
enum class ApiShape { OpenAI, Anthropic, Responses };

} // namespace switchyard
