run rtl_spatial_gate_cosim "$b/gate/mt_cosim" --seed 24 --streams 20 --cycles 3000
