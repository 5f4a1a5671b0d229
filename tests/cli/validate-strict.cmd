validate
--strict
@SHARED@/corpus/emel.cpp/lifecycle_integration_smoke_model@fa1b09ec.gguf
