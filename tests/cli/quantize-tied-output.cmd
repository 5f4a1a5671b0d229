quantize
--dry-run
@REF@/golden/convert/Qwen2.5-Tiny-Test-Instruct.f16.gguf
/nonexistent/out.gguf
Q4_K_M
