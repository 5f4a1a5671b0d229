validate
--strict
@STANDIN@/lifecycle_integration_smoke_model@fa1b09ec.gguf
