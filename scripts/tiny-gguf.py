#!/usr/bin/env python3
"""Writes tiny random-weight llama-architecture GGUF models for the real-engine tests.

Each model has two layers and a 64-wide embedding, so llama-server loads it in well under a
second and generates on a CPU at over a thousand tokens a second. The tokenizer is copied from
one of llama.cpp's own vocabulary files (models/ggml-vocab-*.gguf), so requests tokenize and
answers detokenize as with a real model; the text is of course noise.
"""
import argparse
import os

import numpy as np
import gguf

CHATML = (
    "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + "
    "'<|im_end|>' + '\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"
)


def copy_tokenizer(reader, writer):
    for field in reader.fields.values():
        if not field.name.startswith("tokenizer.") or field.name == gguf.Keys.Tokenizer.CHAT_TEMPLATE:
            continue
        val_type = field.types[0]
        sub_type = field.types[-1] if val_type == gguf.GGUFValueType.ARRAY else None
        writer.add_key_value(field.name, field.contents(), val_type, sub_type=sub_type)
    writer.add_chat_template(CHATML)
    return len(reader.fields["tokenizer.ggml.tokens"].data)


def write_model(path, name, vocab_path, seed, n_ctx_train):
    rng = np.random.default_rng(seed)
    n_embd, n_ff, n_layer, n_head = 64, 128, 2, 4
    writer = gguf.GGUFWriter(path + ".tmp", "llama")
    writer.add_name(name)
    writer.add_context_length(n_ctx_train)
    writer.add_embedding_length(n_embd)
    writer.add_block_count(n_layer)
    writer.add_feed_forward_length(n_ff)
    writer.add_head_count(n_head)
    writer.add_head_count_kv(n_head)
    writer.add_rope_dimension_count(n_embd // n_head)
    writer.add_layer_norm_rms_eps(1e-5)
    writer.add_file_type(gguf.LlamaFileType.MOSTLY_F16)
    n_vocab = copy_tokenizer(gguf.GGUFReader(vocab_path), writer)

    def tensor(tname, *shape):
        writer.add_tensor(tname, (rng.standard_normal(shape) * 0.02).astype(np.float16))

    def norm(tname):
        writer.add_tensor(tname, np.ones(n_embd, dtype=np.float32))

    tensor("token_embd.weight", n_vocab, n_embd)
    norm("output_norm.weight")
    for i in range(n_layer):
        norm(f"blk.{i}.attn_norm.weight")
        norm(f"blk.{i}.ffn_norm.weight")
        for t in ("attn_q", "attn_k", "attn_v", "attn_output"):
            tensor(f"blk.{i}.{t}.weight", n_embd, n_embd)
        tensor(f"blk.{i}.ffn_gate.weight", n_ff, n_embd)
        tensor(f"blk.{i}.ffn_up.weight", n_ff, n_embd)
        tensor(f"blk.{i}.ffn_down.weight", n_embd, n_ff)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    os.replace(path + ".tmp", path)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--vocab", required=True, help="a llama.cpp models/ggml-vocab-*.gguf file")
    parser.add_argument("--out", required=True, help="folder to write the models into")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for seed, name in enumerate(("tiny-llama-a", "tiny-llama-b", "tiny-llama-c")):
        write_model(os.path.join(args.out, name + ".gguf"), name, args.vocab, seed, 131072)


if __name__ == "__main__":
    main()
