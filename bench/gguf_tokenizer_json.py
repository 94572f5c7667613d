"""Writes a Hugging Face tokenizer.json from a GGUF file's byte-level BPE
vocabulary (tokenizer.ggml.model == gpt2), so the exact tokenizer of a model
served by llama.cpp can be used offline. Usage: gguf_tokenizer_json.py MODEL.gguf OUT.json"""
import json
import sys

from gguf import GGUFReader


def strings(field):
    return [bytes(field.parts[i]).decode("utf-8") for i in field.data]


def main(model, out):
    reader = GGUFReader(model)
    fields = reader.fields
    kind = bytes(fields["tokenizer.ggml.model"].parts[fields["tokenizer.ggml.model"].data[0]]).decode()
    if kind != "gpt2":
        sys.exit(f"{model}: tokenizer model {kind!r} is not byte-level BPE (gpt2)")
    pre = bytes(fields["tokenizer.ggml.pre"].parts[fields["tokenizer.ggml.pre"].data[0]]).decode()
    tokens = strings(fields["tokenizer.ggml.tokens"])
    merges = strings(fields["tokenizer.ggml.merges"])
    types = [int(fields["tokenizer.ggml.token_type"].parts[i][0]) for i in fields["tokenizer.ggml.token_type"].data]
    # GGUF token type 3 is a control (special) token.
    added = [
        {"id": i, "content": t, "single_word": False, "lstrip": False, "rstrip": False,
         "normalized": False, "special": True}
        for i, (t, ty) in enumerate(zip(tokens, types)) if ty == 3
    ]
    byte_level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}
    # llama.cpp's "smollm" pre-tokenizer splits every digit on its own before
    # the GPT-2 regex, as the Hugging Face tokenizer's Digits step does.
    pre_tokenizer = (
        {"type": "Sequence", "pretokenizers": [{"type": "Digits", "individual_digits": True}, byte_level]}
        if pre == "smollm" else byte_level
    )
    doc = {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": added,
        "normalizer": None, "pre_tokenizer": pre_tokenizer, "post_processor": None,
        "decoder": byte_level,
        "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
                  "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False,
                  "vocab": {t: i for i, t in enumerate(tokens)}, "merges": merges},
    }
    with open(out, "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, separators=(",", ":"))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
