"""`python -m service.compute`: a compute worker (service/compute/worker.py)."""
from service.compute.worker import main

main()
