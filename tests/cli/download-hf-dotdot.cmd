download
hf://o/r/../../../../api/whoami
