print("piper")
