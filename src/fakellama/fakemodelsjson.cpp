#include "fakemodelsjson.h"

#include "common/jsonwriter.h"

#include <QDateTime>

using namespace Qt::StringLiterals;

namespace switchyard::fake::fakemodelsjson {

const char BuildInfo[] = "b1-de3ff81";

namespace {

QString modelPath(const FakeModelState &model)
{
    return model.file.isEmpty() ? u"/srv/models/"_s + model.id + u".gguf"_s : model.file;
}

qint64 now()
{
    return QDateTime::currentSecsSinceEpoch();
}

void writeMeta(JsonWriter &json, const FakeModelState &model)
{
    json.beginObject();
    json.key("vocab_type").integer(1).key("n_vocab").integer(32000);
    json.key("n_ctx").integer(model.contextSize).key("n_ctx_train").integer(qMax(model.contextSize, 2048));
    json.key("n_embd").integer(64).key("n_params").integer(4178240).key("size").integer(16712960);
    json.key("ftype").string("all F32");
    json.endObject();
}

// The model as its own server describes it (SSE "loaded" info, single-model list).
void writeInfo(JsonWriter &json, const FakeModelState &model)
{
    json.beginObject();
    json.key("id").string(model.id);
    json.key("aliases").beginArray().string(model.id).endArray();
    json.key("tags").beginArray().endArray();
    json.key("object").string("model").key("created").integer(now()).key("owned_by").string("llamacpp");
    json.key("meta");
    writeMeta(json, model);
    json.endObject();
}

void writeRouterEntry(JsonWriter &json, const FakeModelState &model)
{
    json.beginObject();
    json.key("id").string(model.id);
    json.key("aliases").beginArray().endArray();
    json.key("tags").beginArray().endArray();
    json.key("object").string("model").key("owned_by").string("llamacpp").key("created").integer(now());

    json.key("status").beginObject();
    json.key("value").string(fakeModelStatusName(model.status));
    json.key("args").beginArray();
    json.string("/opt/llama.cpp/bin/llama-server").string("--host").string("127.0.0.1");
    json.string("--port").string(QString::number(model.childPort));
    json.string("--alias").string(model.id);
    if (model.fromPreset)
        json.string("--ctx-size").string(QString::number(model.contextSize));
    json.string("--model").string(modelPath(model)).string("--threads").string("2");
    json.endArray();
    QString preset = u'[' + model.id + u"]\n"_s;
    if (model.fromPreset)
        preset += u"ctx-size = %1\n"_s.arg(model.contextSize);
    preset += u"model = "_s + modelPath(model) + u"\nthreads = 2\n\n"_s;
    json.key("preset").string(preset);
    if (model.failed)
        json.key("exit_code").integer(model.exitCode).key("failed").boolean(true);
    json.endObject();

    json.key("architecture").beginObject();
    json.key("input_modalities").beginArray().string("text").endArray();
    json.key("output_modalities").beginArray().string("text").endArray();
    json.endObject();
    json.key("source").string(model.fromPreset ? "preset" : "models_dir");
    json.key("can_remove").boolean(false);
    if (model.status == FakeModelStatus::Loaded || model.status == FakeModelStatus::Sleeping) {
        json.key("meta");
        writeMeta(json, model);
    }
    json.endObject();
}

JsonWriter &beginEvent(JsonWriter &json, const QString &id, const char *event)
{
    return json.beginObject().key("model").string(id).key("event").string(event).key("data").beginObject();
}

// The sampling defaults of a llama-server child, as recorded.
const QByteArray kDefaultParams = QByteArrayLiteral(
    R"({"seed":4294967295,"temperature":0.800000011920929,"dynatemp_range":0.0,"dynatemp_exponent":1.0,)"
    R"("top_k":40,"top_p":0.949999988079071,"min_p":0.05000000074505806,"top_n_sigma":-1.0,)"
    R"("xtc_probability":0.0,"xtc_threshold":0.10000000149011612,"typical_p":1.0,"repeat_last_n":64,)"
    R"("repeat_penalty":1.0,"presence_penalty":0.0,"frequency_penalty":0.0,"dry_multiplier":0.0,)"
    R"("dry_base":1.75,"dry_allowed_length":2,"dry_penalty_last_n":64,"mirostat":0,"mirostat_tau":5.0,)"
    R"("mirostat_eta":0.10000000149011612,"adaptive_target":-1.0,"adaptive_decay":0.8999999761581421,)"
    R"("max_tokens":-1,"n_predict":-1,"n_keep":0,"n_discard":0,"ignore_eos":false,"stream":false,)"
    R"("n_probs":0,"min_keep":0,"chat_format":"Content-only","reasoning_format":"none",)"
    R"("reasoning_in_content":false,"generation_prompt":"","samplers":["penalties","dry","top_n_sigma",)"
    R"("top_k","typ_p","top_p","min_p","xtc","temperature"],"speculative.types":"none",)"
    R"("timings_per_token":false,"post_sampling_probs":false,"backend_sampling":false,"lora":[]})");

const QByteArray kTemplateCaps = QByteArrayLiteral(
    R"({"supports_object_arguments":false,"supports_parallel_tool_calls":false,)"
    R"("supports_preserve_reasoning":false,"supports_reasoning_effort":false,"supports_string_content":true,)"
    R"("supports_system_role":true,"supports_tool_calls":false,"supports_tools":false,)"
    R"("supports_typed_content":false})");

} // namespace

QByteArray routerList(const QList<const FakeModelState *> &models)
{
    JsonWriter json;
    json.beginObject().key("data").beginArray();
    for (const FakeModelState *model : models)
        writeRouterEntry(json, *model);
    json.endArray().key("object").string("list").endObject();
    return json.take();
}

QByteArray singleModelList(const FakeModelState &model)
{
    JsonWriter json;
    json.beginObject().key("models").beginArray().beginObject();
    json.key("name").string(model.id).key("model").string(model.id);
    json.key("modified_at").string("").key("size").string("").key("digest").string("");
    json.key("type").string("model").key("description").string("");
    json.key("tags").beginArray().string("").endArray();
    json.key("capabilities").beginArray().string("completion").endArray();
    json.key("parameters").string("");
    json.key("details").beginObject();
    json.key("parent_model").string("").key("format").string("gguf").key("family").string("");
    json.key("families").beginArray().string("").endArray();
    json.key("parameter_size").string("").key("quantization_level").string("");
    json.endObject();
    json.endObject().endArray();
    json.key("object").string("list");
    json.key("data").beginArray();
    writeInfo(json, model);
    json.endArray().endObject();
    return json.take();
}

QByteArray routerProps(int maxInstances, bool autoload)
{
    JsonWriter json;
    json.beginObject();
    json.key("role").string("router").key("max_instances").integer(maxInstances);
    json.key("models_autoload").boolean(autoload);
    json.key("model_alias").string("llama-server").key("model_path").string("none");
    json.key("default_generation_settings").beginObject().key("params").null().key("n_ctx").integer(0).endObject();
    json.key("ui_settings").beginObject().endObject();
    json.key("build_info").string(BuildInfo).key("cors_proxy_enabled").boolean(false);
    json.endObject();
    return json.take();
}

QByteArray childProps(const FakeModelState &model)
{
    JsonWriter json;
    json.beginObject();
    json.key("default_generation_settings").beginObject();
    json.key("params").raw(kDefaultParams).key("n_ctx").integer(model.contextSize);
    json.endObject();
    json.key("total_slots").integer(4).key("model_alias").string(model.id);
    json.key("model_ftype").string("all F32").key("model_path").string(modelPath(model));
    json.key("modalities").beginObject();
    json.key("vision").boolean(false).key("video").boolean(false).key("audio").boolean(false);
    json.endObject();
    json.key("media_marker").string("<__media_fakefakefakefakefakefakefakefake__>");
    json.key("endpoint_slots").boolean(true).key("endpoint_props").boolean(false);
    json.key("endpoint_metrics").boolean(false).key("ui").boolean(true);
    json.key("ui_settings").beginObject().endObject();
    json.key("chat_template").string(
        "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\n' + message['content'] + "
        "'<|im_end|>' + '\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}"
        "{% endif %}");
    json.key("chat_template_caps").raw(kTemplateCaps);
    json.key("bos_token").string("<s>").key("eos_token").string("</s>");
    json.key("build_info").string(BuildInfo);
    json.key("is_sleeping").boolean(model.status == FakeModelStatus::Sleeping);
    json.key("cors_proxy_enabled").boolean(false);
    json.endObject();
    return json.take();
}

QByteArray loadingStartedEvent(const QString &id)
{
    JsonWriter json;
    beginEvent(json, id, "model_status").key("status").string("loading").endObject().endObject();
    return json.take();
}

QByteArray loadingProgressEvent(const QString &id, double value)
{
    JsonWriter json;
    beginEvent(json, id, "status_change").key("status").string("loading");
    json.key("progress").beginObject();
    json.key("stages").beginArray().string("text_model").endArray();
    json.key("current").string("text_model").key("value").real(value);
    json.endObject();
    json.endObject().endObject();
    return json.take();
}

QByteArray loadedEvent(const FakeModelState &model)
{
    JsonWriter json;
    beginEvent(json, model.id, "status_change").key("status").string("loaded").key("info");
    writeInfo(json, model);
    json.endObject().endObject();
    return json.take();
}

QByteArray unloadedEvent(const QString &id, int exitCode)
{
    JsonWriter json;
    beginEvent(json, id, "status_change").key("status").string("unloaded").key("exit_code").integer(exitCode);
    json.endObject().endObject();
    return json.take();
}

QByteArray sleepingEvent(const QString &id)
{
    JsonWriter json;
    beginEvent(json, id, "status_change").key("status").string("sleeping").endObject().endObject();
    return json.take();
}

} // namespace switchyard::fake::fakemodelsjson
