info
--timeout
0
http://127.0.0.1:1/m.gguf
